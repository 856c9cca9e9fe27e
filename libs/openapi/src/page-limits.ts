import type { OpenAPIObject } from '@nestjs/swagger';

/** Marks a v1 `pageSize` parameter with the name of the setting that bounds it (`@ApiV1Paging`). */
export const PAGE_LIMIT_EXTENSION = 'x-page-limit';

interface PageSizeParameter {
  in?: string;
  name?: string;
  description?: string;
  schema?: { default?: number };
  [PAGE_LIMIT_EXTENSION]?: string;
}

/**
 * Writes each bounded `pageSize` parameter's maximum from `limits` (the service's configuration,
 * e.g. `{ CUSTOMER_MAX_PAGE_SIZE: 1000 }`), so the document states what the service enforces.
 * A parameter naming a limit the service did not give fails the build: a silent default would be
 * the hard-coded number this replaces.
 */
export function applyPageLimits(document: OpenAPIObject, limits: Readonly<Record<string, number>>): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item ?? {})) {
      const parameters = (operation as { parameters?: PageSizeParameter[] } | undefined)?.parameters ?? [];
      for (const parameter of parameters) {
        const name = parameter[PAGE_LIMIT_EXTENSION];
        if (name === undefined) continue;
        const limit = limits[name];
        if (limit === undefined) throw new Error(`OpenAPI: pageSize is bounded by ${name}, which OpenApiModule.forRoot({ pageLimits }) does not give`);
        parameter.description = `Records per page; default and maximum ${limit} (${name}; larger values return the maximum)`;
        parameter.schema = { ...parameter.schema, default: limit };
      }
    }
  }
}
