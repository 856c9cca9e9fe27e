// Refreshes a repository copy of read operations of the published v3 document: the GET operations of
// the given paths (parameters and responses) and every schema their responses reach, descriptions left
// out (so the copy names no third party). Used for published-v3-inventory.json here and
// apps/customers-v1/reference/published-v3-customers.json:
//   node apps/sales-orders-v3/reference/extract-get-responses.mjs <published document> <output.json> /api/v3/Inventory
//   node apps/sales-orders-v3/reference/extract-get-responses.mjs <published document> apps/customers-v1/reference/published-v3-customers.json \
//     /api/v3/Customers '/api/v3/Customers/{customerId}/locations'
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const [source, output, ...wanted] = process.argv.slice(2);
if (!source || !output || wanted.length === 0) throw new Error('usage: extract-get-responses.mjs <published document> <output.json> <path> [<path> ...]');
const published = parse(readFileSync(source, 'utf8'));

/** Drops free-text descriptions and x- annotations; a property named `description` (an object) stays. */
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
for (const path of wanted) {
  const operation = published.paths[path]?.get;
  if (!operation) throw new Error(`no GET ${path} in the document`);
  const kept = strip({ operationId: operation.operationId, parameters: operation.parameters, responses: operation.responses });
  for (const [, ref] of JSON.stringify(kept).matchAll(/#\/components\/schemas\/(\w+)/g)) queue.push(ref);
  paths[path] = { get: kept };
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
  info: { title: `Sales orders v3: the published document, ${wanted.join(', ')} only`, version: published.info.version },
  paths,
  components: { schemas: Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name]])) },
};
writeFileSync(output, `${JSON.stringify(extract, null, 2)}\n`);
