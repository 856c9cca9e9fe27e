// Refreshes published-v3-view-responses.json from a newer copy of the published v3 document:
//   node apps/sales-orders-v3/reference/extract-view-responses.mjs path/to/published.openapi.yaml
// Keeps what the read views' answers are checked against (the 200 application/json schema of
// GET .../commissions, /discounts, /rotrut, /shipment and /tax, and every schema it reaches),
// without the free-text descriptions, as extract-write-requests.mjs does for the request bodies.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPublished, strip, writeExtract } from './published-document.mjs';

const VIEWS = ['commissions', 'discounts', 'rotrut', 'shipment', 'tax'];
const source = process.argv[2];
if (!source) throw new Error('usage: extract-view-responses.mjs <published document (yaml or json)>');
const published = readPublished(source);

const paths = {};
for (const view of VIEWS) {
  const path = `/api/v3/SalesOrders/{type}/{orderId}/${view}`;
  const operation = published.paths[path].get;
  const schema = strip(operation.responses['200'].content['application/json'].schema);
  paths[path] = { get: { operationId: operation.operationId, responses: { 200: { content: { 'application/json': { schema } } } } } };
}
writeExtract(
  published,
  join(dirname(fileURLToPath(import.meta.url)), 'published-v3-view-responses.json'),
  'Sales orders v3: the published document, read view responses only',
  paths,
);
