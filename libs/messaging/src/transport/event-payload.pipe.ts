import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { BaseRpcContext } from '@nestjs/microservices';
import { describeValidationErrors } from '@erp/contracts';
import { InvalidEventPayloadError } from '../consumer/invalid-event-payload.error';

/**
 * The event transport's global pipe: validates an `@Payload()` whose type is a class-validator DTO
 * (the topic envelopes of `@erp/contracts`, e.g. `CustomerEvent`) and hands the handler the DTO
 * instance. A payload that fails throws `InvalidEventPayloadError` with every problem by path, and
 * the consumer dead-letters the message with that reason. Fields the DTO does not know are kept
 * (tolerant reader: producers may add optional fields within a topic's major version).
 */
export class EventPayloadValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: false,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
      // The same `path: message` lines the consumer's own envelope check writes.
      exceptionFactory: (errors) => new InvalidEventPayloadError(describeValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Global pipes see every parameter; `@Ctx()` is the transport's context, not input.
    if (value instanceof BaseRpcContext) return value;
    return super.transform(value, metadata);
  }
}
