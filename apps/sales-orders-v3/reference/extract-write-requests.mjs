// Refreshes published-v3-write-requests.json from a newer copy of the published v3 document:
//   node apps/sales-orders-v3/reference/extract-write-requests.mjs path/to/published.openapi.yaml
// Keeps what the request DTOs are checked against (the write operations' request bodies and every
// schema they reach) and drops the free-text descriptions, so the copy names no third party.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reachableSchemas, readPublished } from './extract-shared.mjs';

const published = readPublished('extract-write-requests.mjs');

const paths = {};
const names = [];
for (const [path, operations] of Object.entries(published.paths)) {
  for (const [method, operation] of Object.entries(operations)) {
    if (!operation.requestBody) continue;
    const $ref = operation.requestBody.content['application/json'].schema.$ref;
    names.push($ref.split('/').pop());
    (paths[path] ??= {})[method] = { operationId: operation.operationId, requestBody: { content: { 'application/json': { schema: { $ref } } } } };
  }
}
const extract = {
  openapi: published.openapi,
  info: { title: 'Sales orders v3: the published document, write request bodies only', version: published.info.version },
  paths,
  components: { schemas: reachableSchemas(published, names) },
};
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'published-v3-write-requests.json'), `${JSON.stringify(extract, null, 2)}\n`);
