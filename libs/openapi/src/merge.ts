import { isDeepStrictEqual } from 'node:util';

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  license?: { name: string; identifier?: string; url?: string };
}

/** A loosely typed OpenAPI document: the merge copies what it does not understand. */
export interface OpenApiDoc {
  openapi: string;
  info: OpenApiInfo;
  paths?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown> | undefined>;
  tags?: { name: string; description?: string }[];
  security?: unknown[];
  servers?: unknown[];
  [key: string]: unknown;
}

export interface ServiceDocument {
  /** Short name of the service, used to rename a conflicting component (`Customer_customers`). */
  service: string;
  document: OpenApiDoc;
}

export interface MergeResult {
  document: OpenApiDoc;
  /** Path collisions (first service wins) and renamed components, for the log. */
  warnings: string[];
}

/** Rewrites `$ref`s to renamed components everywhere in a value. */
function renameRefs(value: unknown, renames: Map<string, string>): unknown {
  if (renames.size === 0) return value;
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, renames));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = key === '$ref' && typeof inner === 'string' && renames.has(inner) ? renames.get(inner) : renameRefs(inner, renames);
    }
    return out;
  }
  return value;
}

/**
 * Merges the services' documents into one. Paths are disjoint (each service owns its prefixes);
 * should two services declare the same path, the first keeps it. Components are merged by section
 * and name: an identical definition is kept once; a different one under a taken name is renamed
 * `<name>_<service>` and that service's references follow it.
 */
export function mergeOpenApiDocuments(
  parts: ServiceDocument[],
  info: OpenApiInfo,
): MergeResult {
  const warnings: string[] = [];
  const paths: Record<string, unknown> = {};
  const components: Record<string, Record<string, unknown>> = {};
  const tags: { name: string; description?: string }[] = [];
  for (const { service, document } of parts) {
    // First pass: decide each component's name in the merged document.
    const renames = new Map<string, string>();
    for (const [section, entries] of Object.entries(document.components ?? {})) {
      for (const [name, definition] of Object.entries(entries ?? {})) {
        const existing = components[section]?.[name];
        if (existing === undefined || isDeepStrictEqual(existing, definition)) continue;
        let candidate = `${name}_${service}`;
        for (let i = 2; components[section]?.[candidate] !== undefined && !isDeepStrictEqual(components[section][candidate], definition); i += 1) {
          candidate = `${name}_${service}${i}`;
        }
        renames.set(`#/components/${section}/${name}`, `#/components/${section}/${candidate}`);
        warnings.push(`component ${section}/${name} of ${service} differs from an earlier one: renamed ${candidate}`);
      }
    }
    const doc = renameRefs(document, renames) as OpenApiDoc;
    for (const [section, entries] of Object.entries(doc.components ?? {})) {
      components[section] ??= {};
      for (const [name, definition] of Object.entries(entries ?? {})) {
        const target = renames.get(`#/components/${section}/${name}`)?.split('/').pop() ?? name;
        components[section][target] ??= definition;
      }
    }
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      if (paths[path] !== undefined) {
        warnings.push(`path ${path} of ${service} is already described by another service: skipped`);
        continue;
      }
      paths[path] = item;
    }
    for (const tag of doc.tags ?? []) {
      if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
    }
  }
  const document: OpenApiDoc = { openapi: '3.1.0', info: { ...info }, servers: [{ url: '/' }], ...(tags.length > 0 ? { tags } : {}), paths, components };
  return { document, warnings };
}
