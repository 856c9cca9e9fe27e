import fc from 'fast-check';
import { calmSnapshot, caseSeed, FULL, type CompanyFixture, type Harness, snapshot } from '../support/system';
import { type Operation, type OpenApiDocument, operationsOf } from './schema-fuzz/openapi-operations';
import { bodyOf, parameterTextOf } from './schema-fuzz/schema-arbitraries';
import { type FuzzRequest, probesOf } from './schema-fuzz/probes';

/** Generated requests per operation, besides the fixed probes: CI and full (RELIABILITY_FULL=1). */
export const SCHEMA_FUZZ_RUNS = FULL ? 150 : 10;

/** fast-check seed (see caseSeed). */
export const SCHEMA_FUZZ_SEED = caseSeed(20261125);

/** Statuses the API documents for a refused or accepted request. */
const DOCUMENTED = new Set([200, 201, 202, 204, 400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 428, 429]);
const AUTH_HEADERS = new Set(['ipp-company-id', 'ipp-application-type', 'authorization']);

/** The fixture's id for a path parameter, by name (and path, for the two kinds of `id`). */
function fixtureValue(f: CompanyFixture, operation: Operation, name: string): string | undefined {
  const byName: Record<string, string | undefined> = {
    customerNumber: f.customerNumber,
    documentNumber: f.invoiceNumber,
    type: f.orderType,
    orderId: f.orderId,
    lineId: String(f.lineId),
    customerId: f.customerNumber,
    inventoryId: f.inventoryId,
    endpoint: 'supplierInvoice',
    objectId: f.invoiceNumber,
    id: operation.path.startsWith('/api/webhooks') ? f.subscriptionId : f.attachmentId,
  };
  return byName[name];
}

/** Random requests for one operation, from its parameters' and body's schemas. */
function requestsOf(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const byKind = (kind: string) => operation.parameters.filter((p) => p.in === kind && !AUTH_HEADERS.has(p.name.toLowerCase()));
  const path = fc.record(
    Object.fromEntries(byKind('path').map((p) => [p.name, fc.option(parameterTextOf(p.schema), { freq: 3, nil: undefined })])),
  );
  const query = fc.subarray(byKind('query')).chain((chosen) => fc.tuple(...chosen.map((p) => parameterTextOf(p.schema).map((v): [string, string] => [p.name, v]))));
  const headers = fc.record(
    Object.fromEntries(byKind('header').map((p) => [p.name.toLowerCase(), fc.oneof(fc.constantFrom('*', '"1"', 'W/"1"'), parameterTextOf(p.schema))])),
    { requiredKeys: [] },
  );
  const body = operation.jsonBody ? bodyOf(operation.jsonBody).map((b) => b as string | undefined) : fc.constant(undefined);
  return fc.record({ path, query, headers, body }).map((r) => ({
    label: 'generated',
    path: Object.fromEntries(Object.entries(r.path).filter((e): e is [string, string] => e[1] !== undefined)),
    query: r.query,
    headers: r.headers as Record<string, string>,
    body: r.body,
  }));
}

/** URL-encodes any text; a lone surrogate (no UTF-8 form, so no URL can carry it) goes as U+FFFD. */
const encode = (text: string) => encodeURIComponent(text.toWellFormed());

/** The request as sent: fixture ids where the generator left a path parameter, auth headers always. */
function toHttp(operation: Operation, request: FuzzRequest, f: CompanyFixture, auth: Record<string, string>): { url: string; init: RequestInit } {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(request.path[name] ?? fixtureValue(f, operation, name) ?? 'unknown'));
  const query = request.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  // fetch refuses header values outside Latin-1 or with control characters; those go as their code points' text.
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, '?')]));
  return {
    url: query ? `${path}?${query}` : path,
    init: {
      method: operation.method,
      headers: { ...headers, ...auth, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: request.body,
    },
  };
}

/**
 * What is wrong with an answer, if anything: a 5xx or a status neither the API's common set nor the
 * operation documents (a keyed write's 422 for a key sent again with another request is the
 * operation's own), or an error not in its family's shape.
 */
async function problemWith(response: Response, path: string, operation: Operation): Promise<string | undefined> {
  const text = await response.text();
  if (!DOCUMENTED.has(response.status) && !operation.responses.includes(String(response.status))) return `status ${response.status}: ${text.slice(0, 200)}`;
  if (response.status < 400) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (path.startsWith('/v1/')) {
    const body = JSON.parse(text) as Record<string, unknown>;
    const missing = ['ExceptionType', 'ExceptionMessage', 'ExceptionFaultCode', 'ExceptionMessageID', 'ExceptionDetails'].filter((k) => typeof body[k] !== 'string');
    return missing.length > 0 ? `v1 error without ${missing.join(', ')}: ${text.slice(0, 200)}` : undefined;
  }
  if (!type.startsWith('application/problem+json')) return `problem without application/problem+json (${type}): ${text.slice(0, 200)}`;
  const problem = JSON.parse(text) as { type?: unknown; title?: unknown; status?: unknown };
  return typeof problem.type === 'string' && typeof problem.title === 'string' && problem.status === response.status
    ? undefined
    : `problem body not in shape: ${text.slice(0, 200)}`;
}

/**
 * Every operation of the served /openapi.json, with fixed probes and seeded generated requests
 * built from its own schemas: never a 5xx, errors in the documented shape of the path's family,
 * and a refused write changes no stored data.
 */
export function describeSchemaFuzz(harness: () => Harness, fixture: () => CompanyFixture, figures: Record<string, unknown>): void {
  let operations: Operation[] = [];
  const counts = { requests: 0, refusedWrites: 0, operations: 0 };
  let started = 0;

  beforeAll(async () => {
    const response = await harness().call('/openapi.json');
    operations = operationsOf((await response.json()) as OpenApiDocument);
    started = Date.now();
  });

  afterAll(() => {
    const durationMs = Date.now() - started;
    Object.assign(figures, {
      'schemaFuzz.seed': SCHEMA_FUZZ_SEED,
      'schemaFuzz.runsPerOperation': SCHEMA_FUZZ_RUNS,
      'schemaFuzz.operations': counts.operations,
      'schemaFuzz.requests': counts.requests,
      'schemaFuzz.refusedWrites': counts.refusedWrites,
      'schemaFuzz.durationMs': durationMs,
    });
    console.log(`schema fuzz: ${counts.requests} requests over ${counts.operations} operations, seed ${SCHEMA_FUZZ_SEED}, ${durationMs} ms`);
  });

  it('covers every operation of the served /openapi.json', () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  it('answers every operation\'s probes and generated requests without a 5xx, in the family\'s error shape, and a refused write changes nothing', async () => {
    const h = harness();
    const f = fixture();
    const auth = await h.auth.headers({ company: f.company });
    const findings: string[] = [];
    let before = await calmSnapshot(h);
    for (const [index, operation] of operations.entries()) {
      counts.operations++;
      const generated = fc.sample(requestsOf(operation), { numRuns: SCHEMA_FUZZ_RUNS, seed: SCHEMA_FUZZ_SEED + index });
      for (const request of [...probesOf(operation), ...generated]) {
        const { url, init } = toHttp(operation, request, f, auth);
        counts.requests++;
        const response = await h.call(url, init);
        const problem =
          request.mustRefuse && (response.status < 400 || response.status >= 500)
            ? `accepted or failed (${response.status}) where a 4xx was due: ${(await response.text()).slice(0, 200)}`
            : await problemWith(response, url, operation);
        if (problem) findings.push(`${operation.method} ${operation.path} [${request.label}] ${url.slice(0, 120)} body=${String(request.body).slice(0, 120)}: ${problem}`);
        if (operation.method === 'GET') continue;
        if (response.status >= 400) {
          counts.refusedWrites++;
          const after = await snapshot(h);
          if (JSON.stringify(after) !== JSON.stringify(before)) findings.push(`${operation.method} ${operation.path} [${request.label}] refused with ${response.status} but changed stored data`);
          before = after;
        } else {
          // An accepted write changes data, and its events change more a moment later: wait for calm.
          before = await calmSnapshot(h);
        }
      }
    }
    expect(findings).toEqual([]);
  }, 600_000);
}
