import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { applyIdempotencyKeys } from './idempotency-keys';
import { operationIdOf, stateOperationScopes } from './operation-scopes';
import { applyPageLimits } from './page-limits';
import { BEARER_SCHEME, SERVICE_TOKEN_DESCRIPTION, SERVICE_TOKEN_SCHEME, SHARED_SCHEMAS, type Schemas } from './schemas';

export interface OpenApiDocumentOptions {
  title: string;
  version: string;
  description?: string;
  /** Named component schemas the service's decorators refer to (`ref('Customer')`). */
  schemas?: Schemas;
  /** The configured maxima that `@ApiV1Paging(name)` parameters refer to, e.g. `{ CUSTOMER_MAX_PAGE_SIZE: 1000 }`. */
  pageLimits?: Readonly<Record<string, number>>;
}

/** Paths that are operations, not API: health, metrics and the documents themselves. */
const OPERATIONAL_PATH = /^\/(health|metrics|openapi\.json|internal\/openapi\.json)(\/|$)/;
/** Paths of the internal API, which other services call (`@InternalRoute()`, `@ApiInternal()`). */
const INTERNAL_PATH = /^\/internal\//;

/**
 * Which document: `public` (the API clients call, merged by the gateway) or `internal` (what other
 * services call under `/internal/v<n>`, docs/cross-service-reads.md). Each leaves the other's paths out.
 */
export type OpenApiAudience = 'public' | 'internal';

/**
 * The OpenAPI 3.1 document of a Nest application, from its controllers' decorators, with the
 * shared bearer scheme and error schemas. Operational routes (health, metrics) are left out.
 */
export function buildOpenApiDocument(app: INestApplication, options: OpenApiDocumentOptions, audience: OpenApiAudience = 'public'): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle(audience === 'internal' ? `${options.title}: internal API` : options.title)
    .setVersion(options.version)
    .setDescription(options.description ?? '');
  const config = (
    audience === 'internal'
      ? builder.addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: SERVICE_TOKEN_DESCRIPTION }, SERVICE_TOKEN_SCHEME)
      : builder.addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Signed JWT with `companies` and `scope` claims' }, BEARER_SCHEME)
  ).build();
  config.components = { ...config.components, schemas: { ...SHARED_SCHEMAS, ...options.schemas } };
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: operationIdOf,
    autoTagControllers: false,
  });
  for (const path of Object.keys(document.paths)) {
    if (OPERATIONAL_PATH.test(path) || INTERNAL_PATH.test(path) !== (audience === 'internal')) delete document.paths[path];
  }
  applyPageLimits(document, options.pageLimits ?? {});
  if (audience === 'public') applyIdempotencyKeys(document);
  if (audience === 'public') stateOperationScopes(app, document);
  if (!options.description) delete (document.info as { description?: string }).description;
  return document;
}
