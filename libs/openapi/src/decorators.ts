import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ApiQueryOptions, HeadersObject, SchemaObject } from '@nestjs/swagger';
import { PAGE_LIMIT_EXTENSION } from './page-limits';
import { BEARER_SCHEME, ref, SERVICE_TOKEN_SCHEME } from './schemas';

export type ErrorFamily = 'v1' | 'problem';
type Decorator = MethodDecorator & ClassDecorator;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: a bad parameter, header or body (every problem listed)',
  401: 'Missing, malformed, expired or badly signed bearer token (`WWW-Authenticate: Bearer`)',
  403: 'The token does not grant this company or the needed scope',
  404: 'Not found (also when the record belongs to another company)',
  406: 'None of the accepted representations can be produced',
  412: 'If-Match does not match the current version; nothing changed',
  413: 'The body is larger than the limit',
  415: 'Unsupported content type',
  428: 'If-Match is required',
  503: 'Service unavailable; retry after `Retry-After` seconds',
};

const REQUEST_ID_HEADER: HeadersObject = {
  'x-request-id': { description: 'Id of the request, also in the logs', schema: { type: 'string' } },
};

/** Error responses in the family's shape: the v1 body or problem+json. */
export function ApiErrors(family: ErrorFamily, ...statuses: number[]): Decorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        headers: REQUEST_ID_HEADER,
        content:
          family === 'v1'
            ? { 'application/json': { schema: ref('V1Error') } }
            : { 'application/problem+json': { schema: ref('Problem') } },
      }),
    ),
  ) as Decorator;
}

export const COMPANY_ID_HEADER = {
  name: 'ipp-company-id',
  required: false,
  description: 'The company addressed; may be omitted when the token grants exactly one company.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
} as const;

export const APPLICATION_TYPE_HEADER = {
  name: 'ipp-application-type',
  required: true,
  description: 'Name of the calling application (1 to 100 printable ASCII characters); required on every /v1 request.',
  schema: { type: 'string', minLength: 1, maxLength: 100 },
} as const;

/**
 * Controller-level documentation of the authentication every request of a family needs:
 * the bearer token, `ipp-company-id` (and `ipp-application-type` on /v1) and the 400/401/403 answers.
 */
export function ApiAuthenticated(family: ErrorFamily): ClassDecorator {
  const headers = family === 'v1' ? [ApiHeader(COMPANY_ID_HEADER), ApiHeader(APPLICATION_TYPE_HEADER)] : [ApiHeader(COMPANY_ID_HEADER)];
  return applyDecorators(ApiBearerAuth(BEARER_SCHEME), ...headers, ApiErrors(family, 400, 401, 403));
}

/**
 * Controller-level documentation of an internal API controller (`@InternalRoute()` of `@erp/auth`):
 * the calling service's token, the one company of the call, and the 400/401/403 answers. Its paths
 * appear in the service's `/internal/openapi.json` only, never in the public document.
 */
export function ApiInternal(family: ErrorFamily): ClassDecorator {
  return applyDecorators(
    ApiTags('Internal'),
    ApiBearerAuth(SERVICE_TOKEN_SCHEME),
    ApiHeader({ ...COMPANY_ID_HEADER, required: true, description: 'The one company of the call: the company the service token is for.' }),
    ApiErrors(family, 400, 401, 403),
  );
}

/** `If-Match` request header: optional on v1 PUT, required on v3 PATCH/DELETE (428 without it, 412 when stale). */
export function ApiIfMatch(required: boolean): MethodDecorator {
  return ApiHeader({
    name: 'If-Match',
    required,
    description: required
      ? 'The ETag of the version being changed (strong), or `*`. Required: 428 without it, 412 when stale.'
      : 'The ETag of the version being changed (strong), or `*`. Optional: 412 when stale.',
    schema: { type: 'string', examples: ['"7f3a9c"'] },
  }) as MethodDecorator;
}

export const ETAG_HEADER: HeadersObject = {
  ETag: { description: 'Strong entity tag of the current version (send it back in If-Match)', schema: { type: 'string' } },
};

export const LOCATION_HEADER: HeadersObject = {
  Location: { description: 'Path of the created resource', schema: { type: 'string' } },
};

/** A JSON response whose body is the named component schema (or an inline schema). */
export function ApiJsonResponse(
  status: number,
  description: string,
  schema: string | SchemaObject,
  headers?: HeadersObject,
  mediaType = 'application/json',
): MethodDecorator {
  return ApiResponse({
    status,
    description,
    headers,
    content: { [mediaType]: { schema: typeof schema === 'string' ? ref(schema) : schema } },
  }) as MethodDecorator;
}

/** v1 paging: `pageNumber` (1-based) and `pageSize`, whose default and maximum is the setting `limit` names. */
export function ApiV1Paging(limit: string): MethodDecorator {
  const pageSize: ApiQueryOptions & { [PAGE_LIMIT_EXTENSION]: string } = {
    name: 'pageSize',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    [PAGE_LIMIT_EXTENSION]: limit,
  };
  return applyDecorators(
    ApiQuery({ name: 'pageNumber', required: false, description: '1-based page number (default 1); past the end: `[]`', schema: { type: 'integer', minimum: 1, default: 1 } }),
    // The maximum is configuration (`limit` names the setting): the document gets the value the
    // running service enforces when it is built (OpenApiModule.forRoot({ pageLimits })).
    ApiQuery(pageSize),
  ) as MethodDecorator;
}

/** v3 paging: `pageSize` and 0-based `pageIndex`. */
export function ApiV3Paging(defaultSize: number, maxSize: number, note = ''): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'pageSize',
      required: false,
      description: `Items per page; default ${defaultSize}, maximum ${maxSize}${note} (larger values are cut to the maximum)`,
      schema: { type: 'integer', minimum: 1, default: defaultSize },
    }),
    ApiQuery({ name: 'pageIndex', required: false, description: '0-based page index', schema: { type: 'integer', minimum: 0, default: 0 } }),
  ) as MethodDecorator;
}

/** `expand`: comma-separated and/or repeated, case-insensitive. */
export function ApiExpand(parts: readonly string[]): MethodDecorator {
  return ApiQuery({
    name: 'expand',
    required: false,
    description: `Parts to include: ${parts.join(', ')} (comma-separated and/or repeated, any case); unknown values are 400`,
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string', enum: [...parts] } },
  }) as MethodDecorator;
}

/** v1 timestamp filter: `<name>` plus `<name>Condition`. */
export function ApiTimestampFilter(name: string): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name, required: false, description: 'ISO 8601 without zone, read as UTC', schema: { type: 'string', examples: ['2026-01-31T12:00:00'] } }),
    ApiQuery({
      name: `${name}Condition`,
      required: false,
      description: `Comparison for ${name} (URL-encoded); default \`>=\``,
      schema: { type: 'string', enum: ['>', '>=', '<', '<=', '='], default: '>=' },
    }),
  ) as MethodDecorator;
}

/** A simple optional string query filter. */
export function ApiFilter(name: string, description: string, values?: readonly string[]): MethodDecorator {
  return ApiQuery({ name, required: false, description, schema: values ? { type: 'string', enum: [...values] } : { type: 'string' } }) as MethodDecorator;
}
