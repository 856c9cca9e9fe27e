import type { SchemaObject } from '@nestjs/swagger';
import { DECIMAL_STRING } from '@erp/decimals';

/** Name of the bearer security scheme every service declares. */
export const BEARER_SCHEME = 'bearer';
/** The internal API's security scheme: the calling service's token (docs/cross-service-reads.md). */
export const SERVICE_TOKEN_SCHEME = 'serviceToken';
export const SERVICE_TOKEN_DESCRIPTION =
  'HS256 JWT signed with the deployment\'s INTERNAL_API_SECRET: `iss` erp-internal, `sub` the calling service, `aud` the called one, `company` the one company of the call (= `ipp-company-id`), `exp` within a minute. User tokens are refused.';

export type Schemas = Record<string, SchemaObject>;

/** Components every service shares: the two error shapes of `@erp/errors` (render.ts). */
export const SHARED_SCHEMAS: Schemas = {
  V1Error: {
    type: 'object',
    description: 'Error body of the /v1 family.',
    required: ['ExceptionType', 'ExceptionMessage', 'ExceptionFaultCode', 'ExceptionMessageID', 'ExceptionDetails'],
    properties: {
      ExceptionType: { type: 'string', examples: ['ValidationException'] },
      ExceptionMessage: { type: 'string', description: 'Human text; a validation failure names every bad field.' },
      ExceptionFaultCode: { type: 'string', examples: ['10001'] },
      ExceptionMessageID: { type: 'string', description: '`<fault code>_<uuid>`', examples: ['10001_0b5c1f9e-6a63-4a4e-9d0e-2f1b3c4d5e6f'] },
      ExceptionDetails: { type: 'string' },
    },
  },
  V1ListMetadata: {
    type: 'object',
    description: 'Carried by every record of a v1 list.',
    required: ['totalCount', 'maxPageSize'],
    properties: {
      totalCount: { type: 'integer', description: 'Records matching the filters, regardless of paging' },
      maxPageSize: { type: 'integer', description: "The endpoint's maximum page size" },
    },
  },
  AttachmentRef: {
    type: 'object',
    description: 'An attachment of the record; read it at /v1/attachment/{id}.',
    required: ['id', 'name', 'revision'],
    properties: { id: { type: 'string' }, name: { type: 'string' }, revision: { type: 'integer', minimum: 1 } },
  },
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details (application/problem+json) of /api/v3 and /api/webhooks.',
    required: ['type', 'title', 'status'],
    properties: {
      type: { type: 'string', examples: ['urn:erp:problem:validation-failed'] },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      instance: { type: 'string' },
      errors: {
        type: 'object',
        description: 'Validation failures (400): messages grouped by field path.',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
      details: {
        type: 'array',
        description: 'Validation failures (400): one entry per problem.',
        items: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', examples: ['0001-NullNotAllowed'] },
            message: { type: 'string' },
            parameters: { type: 'object', properties: { property: { type: 'string' } } },
          },
        },
      },
    },
  },
};

export const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });

/** A v1 write field: sent plain or wrapped as `{ "value": ... }`, as existing v1 clients send it. */
export const v1Field = (schema: SchemaObject | { $ref: string }): SchemaObject => ({
  oneOf: [schema, { type: 'object', required: ['value'], properties: { value: schema } }],
});

/** A referenced object that may be null. */
export const nullableRef = (name: string): SchemaObject => ({ oneOf: [ref(name), { type: 'null' }] });

/**
 * An exact decimal under the one rule of `@erp/decimals` (docs/api-conventions.md "Decimals"): a JSON
 * number of at most 15 significant digits or a string in plain decimal notation (never converted
 * through a float).
 */
export const DECIMAL_INPUT: SchemaObject = {
  oneOf: [{ type: 'number' }, { type: 'string', pattern: DECIMAL_STRING.source }],
};
