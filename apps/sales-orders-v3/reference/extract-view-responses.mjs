// Refreshes published-v3-view-responses.json from a newer copy of the published v3 document:
//   node apps/sales-orders-v3/reference/extract-view-responses.mjs path/to/published.openapi.yaml
// Keeps what the read views' answers are checked against (the 200 application/json schema of
// GET .../commissions, /discounts, /rotrut, /shipment and /tax, and every schema it reaches),
// without the free-text descriptions, as extract-write-requests.mjs does for the request bodies.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reachableSchemas, readPublished, refsOf, strip } from './extract-shared.mjs';

const VIEWS = ['commissions', 'discounts', 'rotrut', 'shipment', 'tax'];
const published = readPublished('extract-view-responses.mjs');

const paths = {};
const names = [];
for (const view of VIEWS) {
  const path = `/api/v3/SalesOrders/{type}/{orderId}/${view}`;
  const operation = published.paths[path].get;
  const schema = strip(operation.responses['200'].content['application/json'].schema);
  names.push(...refsOf(schema));
  paths[path] = { get: { operationId: operation.operationId, responses: { 200: { content: { 'application/json': { schema } } } } } };
}
const extract = {
  openapi: published.openapi,
  info: { title: 'Sales orders v3: the published document, read view responses only', version: published.info.version },
  paths,
  components: { schemas: reachableSchemas(published, names) },
};
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'published-v3-view-responses.json'), `${JSON.stringify(extract, null, 2)}\n`);
