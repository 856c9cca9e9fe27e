// What the extract-*.mjs scripts share: reading the published document, leaving out its free-text
// descriptions and `x-` annotations, and collecting every schema a set of schemas reaches.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export function readPublished(usage) {
  const source = process.argv[2];
  if (!source) throw new Error(`usage: ${usage} <published document (yaml or json)>`);
  return parse(readFileSync(source, 'utf8'));
}

export const strip = (value) =>
  Array.isArray(value)
    ? value.map(strip)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key, v]) => !(key === 'description' && typeof v === 'string') && !(key.startsWith('x-') && typeof v !== 'object'))
            .map(([key, v]) => [key, strip(v)]),
        )
      : value;

export const refsOf = (value) => [...JSON.stringify(value).matchAll(/#\/components\/schemas\/(\w+)/g)].map(([, name]) => name);

/** The named schemas and every schema they reach, stripped, sorted by name. */
export function reachableSchemas(published, names) {
  const queue = [...names];
  const schemas = {};
  while (queue.length > 0) {
    const name = queue.shift();
    if (schemas[name]) continue;
    schemas[name] = strip(published.components.schemas[name]);
    queue.push(...refsOf(schemas[name]));
  }
  return Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name]]));
}
