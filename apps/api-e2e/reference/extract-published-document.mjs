// Refreshes published-v3-document.json from a newer copy of the published v3 document:
//   node apps/api-e2e/reference/extract-published-document.mjs path/to/published.openapi.yaml
// Keeps every operation (parameters, request bodies, responses and their headers) and every schema,
// as published, and drops what is only prose or names a third party: the free-text `description`s
// and `summary`s (a response keeps an empty description, which OpenAPI requires), the `x-`
// annotations, `info` beyond the version, and the security schemes (the contract test sends its own
// tokens). The contract test (`src/v3-contract.e2e-spec.ts`) validates against this copy.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const source = process.argv[2];
if (!source) throw new Error('usage: extract-published-document.mjs <published document (yaml or json)>');
const published = parse(readFileSync(source, 'utf8'));

const strip = (value, key) =>
  Array.isArray(value)
    ? value.map((item) => strip(item))
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([k, v]) => !((k === 'description' || k === 'summary') && typeof v === 'string') && !k.startsWith('x-') && k !== 'security')
            .map(([k, v]) => [k, k === 'responses' ? responses(v) : strip(v, k)]),
        )
      : value;
const responses = (byStatus) => Object.fromEntries(Object.entries(byStatus).map(([status, response]) => [status, { description: '', ...strip(response) }]));

const document = {
  openapi: published.openapi,
  info: { title: 'Sales orders v3: the published document (prose and vendor annotations left out)', version: published.info.version },
  paths: strip(published.paths),
  components: { schemas: strip(published.components.schemas) },
};
const text = `${JSON.stringify(document, null, 2)}\n`;
const vendor = /vism/i.exec(text);
if (vendor) throw new Error(`the copy still names a third party near: ${text.slice(vendor.index - 80, vendor.index + 40)}`);
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'published-v3-document.json'), text);
