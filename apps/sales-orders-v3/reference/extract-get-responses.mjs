// Refreshes a repository copy of read operations of the published v3 document: the GET operations of
// the given paths (parameters and responses) and every schema their responses reach, descriptions left
// out. Used for published-v3-inventory.json here and apps/customers-v1/reference/published-v3-customers.json:
//   node apps/sales-orders-v3/reference/extract-get-responses.mjs <published document> <output.json> /api/v3/Inventory
//   node apps/sales-orders-v3/reference/extract-get-responses.mjs <published document> apps/customers-v1/reference/published-v3-customers.json \
//     /api/v3/Customers '/api/v3/Customers/{customerId}/locations'
import { readPublished, strip, writeExtract } from './published-document.mjs';

const [source, output, ...wanted] = process.argv.slice(2);
if (!source || !output || wanted.length === 0) throw new Error('usage: extract-get-responses.mjs <published document> <output.json> <path> [<path> ...]');
const published = readPublished(source);

const paths = {};
for (const path of wanted) {
  const operation = published.paths[path]?.get;
  if (!operation) throw new Error(`no GET ${path} in the document`);
  paths[path] = { get: strip({ operationId: operation.operationId, parameters: operation.parameters, responses: operation.responses }) };
}
writeExtract(published, output, `Sales orders v3: the published document, ${wanted.join(', ')} only`, paths);
