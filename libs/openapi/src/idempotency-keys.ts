import type { OpenAPIObject } from '@nestjs/swagger';
import { ref } from './schemas';

/** The header every POST and PATCH takes (libs/idempotency; docs/api-conventions.md "Safe retries"). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry of this write count once (draft-ietf-httpapi-idempotency-key-header-07): a unique value per write, ' +
    'e.g. a UUID, sent again unchanged with each retry of it. The same key with the same request gives the first ' +
    'answer again (`Idempotent-Replayed: true`), with another request 422, while the first still runs 409. ' +
    'Scoped to the company, the caller and the operation; kept at least 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$' },
} as const;

const DESCRIPTIONS: Record<string, string> = {
  '409': 'A request with this Idempotency-Key is still being processed: send it again after `Retry-After` seconds',
  '422': 'This Idempotency-Key was used for another request: use a new key for a new request',
};

interface Operation {
  parameters?: Array<{ name?: string; in?: string }>;
  responses?: Record<string, unknown>;
}

/**
 * Every POST and PATCH of the document takes the optional `Idempotency-Key` header and may answer
 * 409 and 422 in its family's error shape: written here once, from the method, rather than on each
 * route, so no write can be left without it. A route's own 409 (a conflict it documents) stays.
 */
export function applyIdempotencyKeys(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const content = path.startsWith('/v1/') ? { 'application/json': { schema: ref('V1Error') } } : { 'application/problem+json': { schema: ref('Problem') } };
    for (const method of ['post', 'patch'] as const) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const parameters = (operation.parameters ??= []);
      if (!parameters.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key')) parameters.push({ ...IDEMPOTENCY_KEY_PARAMETER });
      const responses = (operation.responses ??= {});
      for (const status of ['409', '422']) responses[status] ??= { description: DESCRIPTIONS[status], content };
    }
  }
}
