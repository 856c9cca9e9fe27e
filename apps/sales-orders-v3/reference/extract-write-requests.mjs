// Refreshes published-v3-write-requests.json from a newer copy of the published v3 document:
//   node apps/sales-orders-v3/reference/extract-write-requests.mjs path/to/published.openapi.yaml
// Keeps what the request DTOs are checked against (the write operations' request bodies and every
// schema they reach) and drops the free-text descriptions, so the copy names no third party.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const source = process.argv[2];
if (!source) throw new Error('usage: extract-write-requests.mjs <published document (yaml or json)>');
const published = parse(readFileSync(source, 'utf8'));

const strip = (value) =>
  Array.isArray(value)
    ? value.map(strip)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key, v]) => !(key === 'description' && typeof v === 'string') && !(key.startsWith('x-') && typeof v !== 'object'))
            .map(([key, v]) => [key, strip(v)]),
        )
      : value;

const paths = {};
const queue = [];
for (const [path, operations] of Object.entries(published.paths)) {
  for (const [method, operation] of Object.entries(operations)) {
    if (!operation.requestBody) continue;
    const $ref = operation.requestBody.content['application/json'].schema.$ref;
    queue.push($ref.split('/').pop());
    (paths[path] ??= {})[method] = { operationId: operation.operationId, requestBody: { content: { 'application/json': { schema: { $ref } } } } };
  }
}
const schemas = {};
while (queue.length > 0) {
  const name = queue.shift();
  if (schemas[name]) continue;
  schemas[name] = strip(published.components.schemas[name]);
  for (const [, ref] of JSON.stringify(schemas[name]).matchAll(/#\/components\/schemas\/(\w+)/g)) queue.push(ref);
}
const extract = {
  openapi: published.openapi,
  info: { title: 'Sales orders v3: the published document, write request bodies only', version: published.info.version },
  paths,
  components: { schemas: Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name]])) },
};
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'published-v3-write-requests.json'), `${JSON.stringify(extract, null, 2)}\n`);
