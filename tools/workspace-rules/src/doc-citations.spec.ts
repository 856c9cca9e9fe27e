import { readFileSync } from 'node:fs';
import path from 'node:path';
import { citationProblems, guidesOf, indexWorkspace, inlineCodeSpans, packageDeclares, type WorkspaceIndex } from './doc-citations';
import { WORKSPACE_ROOT } from './workspace-projects';

/** Names of packages' APIs the guides cite although no code imports them (a guide says why not to use them). */
const EXTERNAL_NAMES: Record<string, string> = {
  ClientProxy: '@nestjs/microservices',
  ClientKafka: '@nestjs/microservices',
  // The gateway's README says why reply-from's own retry options do not fit its retry rule.
  retryMethods: '@fastify/reply-from',
  maxRetriesOn503: '@fastify/reply-from',
};
/** Files only the build writes (`dist/apps/<app>/`), which tools/build/README.md describes. */
const GENERATED_FILES = new Set(['main.js', 'migrate.js']);
const OPTIONS = { externalNames: new Set(Object.keys(EXTERNAL_NAMES)), generatedFiles: GENERATED_FILES };

describe('the guides cite what exists', () => {
  let index: WorkspaceIndex;
  const read = (doc: string) => readFileSync(path.join(WORKSPACE_ROOT, doc), 'utf8');

  beforeAll(() => {
    index = indexWorkspace(WORKSPACE_ROOT);
  });

  it('reads every guide under docs/ and every README, new ones included', () => {
    const guides = guidesOf(index);
    expect(guides).toEqual(expect.arrayContaining(['README.md', 'docs/adding-a-field.md', 'docs/adding-an-endpoint.md', 'docs/adding-an-event-consumer.md', 'docs/api-conventions.md', 'libs/messaging/README.md']));
    expect(guides.filter((g) => g.includes('history'))).toEqual([]);
  });

  it('names no file and no symbol that the workspace does not have', () => {
    expect(citationProblems(index, read, guidesOf(index), OPTIONS)).toEqual([]);
  });

  it('cites packages only by names those packages declare', () => {
    for (const [name, packageName] of Object.entries(EXTERNAL_NAMES)) expect({ name, declared: packageDeclares(WORKSPACE_ROOT, packageName, name) }).toEqual({ name, declared: true });
  });

  it('finds a removed method, a split test file, a renamed class and a missing path', () => {
    const doc = [
      'The use case calls `OrderChange.record(...)` and `OrderChange.announce(...)`.',
      'Tests: `sales-orders-write.int-spec.ts`, `sales-orders-patch-etag.int-spec.ts`, `repository/order-records.ts`.',
      'Wired by `GetPriceRule` and `PutPriceList`; see `apps/sales-orders-v3/src/pricing/gone.ts` and `libs/decimals/README.md`.',
      '```ts\nOrderChange.imaginary(); // fenced code is an illustration\n```',
    ].join('\n');
    const problems = citationProblems(index, () => doc, ['docs/example.md'], OPTIONS).map((p) => p.citation);
    expect(problems).toEqual(['OrderChange.record(...)', 'sales-orders-write.int-spec.ts', 'GetPriceRule', 'apps/sales-orders-v3/src/pricing/gone.ts']);
  });

  it('leaves alone what is not a citation of the code: SQL, JSON paths, URL paths, placeholders, history', () => {
    const doc = '`CAST(:x AS numeric)`, `customer.gln`, `/openapi.json`, `<verb>-<resource>.use-case.ts`, `*.int-spec.ts`, `SALESORDER_CREATED`, `If-Match`';
    expect(citationProblems(index, () => doc, ['docs/example.md'], OPTIONS)).toEqual([]);
    expect(inlineCodeSpans('a `b` c\n```\n`d`\n```\n`e`')).toEqual(['b', 'e']);
  });
});
