// Refreshes published-v3-write-requests.json from a newer copy of the published v3 document:
//   node apps/sales-orders-v3/reference/extract-write-requests.mjs path/to/published.openapi.yaml
// Keeps what the request DTOs are checked against (the write operations' request bodies and every
// schema they reach) and drops the free-text descriptions, so the copy names no third party.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPublished, writeExtract } from './published-document.mjs';

const source = process.argv[2];
if (!source) throw new Error('usage: extract-write-requests.mjs <published document (yaml or json)>');
const published = readPublished(source);

const paths = {};
for (const [path, operations] of Object.entries(published.paths)) {
  for (const [method, operation] of Object.entries(operations)) {
    if (!operation.requestBody) continue;
    const $ref = operation.requestBody.content['application/json'].schema.$ref;
    (paths[path] ??= {})[method] = { operationId: operation.operationId, requestBody: { content: { 'application/json': { schema: { $ref } } } } };
  }
}
writeExtract(
  published,
  join(dirname(fileURLToPath(import.meta.url)), 'published-v3-write-requests.json'),
  'Sales orders v3: the published document, write request bodies only',
  paths,
);
