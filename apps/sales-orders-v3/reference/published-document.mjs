// What the extract-*.mjs scripts share: reading the published document, dropping its free-text
// descriptions (so a copy names no third party), and the schemas a part of it reaches.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

export const readPublished = (source) => parse(readFileSync(source, 'utf8'));

/** Drops string `description`s and scalar `x-` annotations; a property named `description` (an object) stays. */
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

const refsIn = (value) => [...JSON.stringify(value).matchAll(/#\/components\/schemas\/(\w+)/g)].map(([, name]) => name);

/** Writes `{ openapi, info, paths, components.schemas }`: the schemas `paths` reaches, stripped, sorted by name. */
export function writeExtract(published, output, title, paths) {
  const queue = refsIn(paths);
  const schemas = {};
  while (queue.length > 0) {
    const name = queue.shift();
    if (schemas[name]) continue;
    schemas[name] = strip(published.components.schemas[name]);
    queue.push(...refsIn(schemas[name]));
  }
  const extract = {
    openapi: published.openapi,
    info: { title, version: published.info.version },
    paths,
    components: { schemas: Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name]])) },
  };
  writeFileSync(output, `${JSON.stringify(extract, null, 2)}\n`);
}
