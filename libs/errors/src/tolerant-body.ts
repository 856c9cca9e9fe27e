import { type ArgumentMetadata, createParamDecorator, type ExecutionContext, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ValidationFailedError } from './api-error';
import { flattenValidationErrors, JsonObjectBodyPipe } from './validation';

/**
 * The validation of a body that is another service's contract (an internal call carrying an event
 * envelope): into its class and checked by its decorators like every body, but tolerant of fields
 * the class does not know, as event consumers are. During a rollout the caller may be the next
 * release, whose envelope has a field this one has not heard of; the global pipe would refuse it.
 */
@Injectable()
export class TolerantBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const metatype = metadata.metatype;
    if (typeof metatype !== 'function' || metatype === Object) throw new Error('@TolerantBody() needs a class as the parameter type');
    // What the global pipes refuse first for every body: not a JSON object, or one too wide to validate.
    const body = new JsonObjectBodyPipe().transform(value ?? null, { ...metadata, type: 'body' }) as object;
    const dto = plainToInstance(metatype as new () => object, body);
    const errors = validateSync(dto, { forbidUnknownValues: false, validationError: { target: false, value: false } });
    if (errors.length > 0) throw new ValidationFailedError(flattenValidationErrors(errors));
    return dto;
  }
}

/**
 * `@TolerantBody() event: AttachmentEvent`: the request body through `TolerantBodyPipe`. A custom
 * parameter decorator, which the global validation pipe leaves to its own pipe (Nest validates
 * custom decorators only when asked to), so the body is validated once, tolerantly.
 */
export const TolerantBody = (): ParameterDecorator =>
  createParamDecorator((_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ body?: unknown }>().body)(new TolerantBodyPipe());
