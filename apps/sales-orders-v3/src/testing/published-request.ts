import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Request bodies as a client generated from the published v3 document sends them with NSwag's
 * defaults: every property the document declares for the schema is present, `null` unless the
 * caller set it. Built from the repository's copy of the document, so a property added there is
 * sent by the tests too.
 */

interface Property {
  $ref?: string;
  items?: { $ref?: string };
}
interface Schema {
  properties?: Record<string, Property>;
}

const document = JSON.parse(
  readFileSync(join(__dirname, '../../reference/published-v3-write-requests.json'), 'utf8'),
) as { components: { schemas: Record<string, Schema> } };

function schemaOf(ref: string | undefined): string | undefined {
  return ref?.split('/').pop();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `set` filled up with null for every other property of `schema`, nested objects and array items included. */
export function nswagBody(schema: string, set: Record<string, unknown>): Record<string, unknown> {
  const properties = document.components.schemas[schema]?.properties;
  if (!properties) throw new Error(`The published document has no schema ${schema}`);
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = set[name];
    const nested = schemaOf(property.$ref);
    const item = schemaOf(property.items?.$ref);
    if (nested && isPlainObject(value)) body[name] = nswagBody(nested, value);
    else if (item && Array.isArray(value)) body[name] = value.map((v) => (isPlainObject(v) ? nswagBody(item, v) : v));
    else body[name] = value === undefined ? null : value;
  }
  return body;
}

/** The properties the document declares for a schema. */
export function publishedProperties(schema: string): string[] {
  return Object.keys(document.components.schemas[schema]?.properties ?? {});
}
