import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';

/**
 * The v1 family's clients send fields wrapped (`"name": { "value": "Acme" }`), newer ones send
 * them plain. Unwrapping before validation lets one DTO serve both. An object is a wrapper only
 * when `value` is its sole key, so real nested objects (an address) are left as they are.
 */
export function unwrapV1Values(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(unwrapV1Values);
  if (input === null || typeof input !== 'object') return input;
  const keys = Object.keys(input);
  if (keys.length === 1 && keys[0] === 'value') return unwrapV1Values((input as { value: unknown }).value);
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = unwrapV1Values((input as Record<string, unknown>)[key]);
  return out;
}

/** Interceptors run before pipes, so the validation pipe sees the unwrapped body. */
@Injectable()
export class V1ValueUnwrapInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.body !== undefined) request.body = unwrapV1Values(request.body);
    return next.handle();
  }
}
