import fc from 'fast-check';
import { connect } from 'node:net';
import { ENDPOINTS, type Endpoint, neverExisting, requestInit } from '../support/endpoints';
import { calmSnapshot, caseSeed, FULL, type CompanyFixture, type Harness, REQUEST_TIMEOUT_MS, snapshot } from '../support/system';

/** Generated requests per endpoint: CI and full (RELIABILITY_FULL=1). */
export const HOSTILE_RUNS_PER_ENDPOINT = FULL ? 400 : 40;

/** fast-check seed (see caseSeed). */
export const HOSTILE_SEED = caseSeed(20261121);

/** Statuses the API documents. Anything else (5xx above all) is a finding. */
const DOCUMENTED = new Set([200, 201, 202, 204, 400, 401, 403, 404, 405, 406, 408, 409, 412, 413, 415, 428, 429, 431]);

const SQL = [
  "' OR '1'='1", "1; DROP TABLE customers;--", "1' UNION SELECT version()--", "'; SELECT pg_sleep(30);--",
  "\\'", '"', '%', '_', '%%', "' OR company_id IS NOT NULL --", '$1', '::text', 'E\'\\x00\'',
];
const FILTER = ["name eq 'x' or 1 eq 1", '*', '?', '$filter=true', '[', '{', '}', 'a,b,,', ',', '&', '=', '+', '\\', '%25', '%00', '\u0000', '\t', '\n'];
const TRAVERSAL = ['../', '..', '../../etc/passwd', '%2e%2e', '%2e%2e%2f', '%2E%2E%5C', '..\\..\\x', '..%00', '%00', '\u0000', '....//', '%252e%252e', '/', '//', '.', '%2f'];
const BOUNDARY = ['', ' ', '-1', '0', '1', '-0', '1.5', '1e3', '1e309', 'NaN', 'Infinity', '2147483648', '9223372036854775808', '9'.repeat(400), '0x10', '00001', 'true', 'null', '[]', '{}', '2026-13-45', '2026-01-01T25:61:61Z', '1970-01-01', '9999-12-31T23:59:59Z', '-271821-04-20'];
const QUERY_KEYS = ['pageSize', 'pageNumber', 'pageIndex', 'name', 'status', 'corporateId', 'vatRegistrationId', 'lastModifiedDateTime', 'lastModifiedDateTimeCondition', 'createdDateTime', 'createdDateTimeCondition', 'supplier', 'documentType', 'customerId', 'modifiedSince', 'filter', 'orderBy', 'expand', 'revision', '__proto__', 'constructor', 'a[b]', ''];

const hostileString = fc.oneof(
  fc.constantFrom(...SQL, ...FILTER, ...TRAVERSAL, ...BOUNDARY),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.nat({ max: 100_000 }).map((n) => 'x'.repeat(n)),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, [], {}, Number.MAX_SAFE_INTEGER, -1, 0, 1e308),
  fc.jsonValue({ maxDepth: 4 }),
);

/** Object with known field names (and some odd ones) holding hostile values. */
const hostileObject = fc.dictionary(
  fc.constantFrom('name', 'status', 'description', 'type', 'customer', 'orderLines', 'lines', 'supplier', 'invoiceLines', 'number', 'referenceNumber', 'publisher', 'eventTypes', 'url', 'enabled', 'since', 'until', 'mainAddress', 'quantity', 'unitPrice', '__proto__', 'constructor', 'prototype', 'value'),
  hostileValue,
  { maxKeys: 6 },
);

const WRONG_CONTENT_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'multipart/form-data', 'multipart/form-data; boundary=', 'application/octet-stream', '*/*', 'application/json, text/plain', '', 'application/jsonx', 'application/problem+json'];

// Encoded fully or only where a URL needs it, chosen from the value itself so a seed replays a run.
const enc = (s: string) => (s.length % 2 === 0 ? encodeURIComponent(s) : s.replace(/[?#\s]/g, encodeURIComponent));

function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** One generated request against an endpoint. */
interface Attempt {
  label: string;
  path: string;
  init: RequestInit;
}

const mutations = (endpoint: Endpoint, f: CompanyFixture, base: Record<string, string>): fc.Arbitrary<Attempt> => {
  // Writes without a body target a record that never existed, so a generated request cannot
  // legitimately delete or rotate the fixture; their hostility is in the path, query and headers.
  const target = endpoint.body === 'none' && endpoint.method !== 'GET' ? neverExisting(f) : f;
  const valid = () => requestInit(endpoint, target, base);
  const query = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), hostileString), hostileString), { minLength: 1, maxLength: 4 })
    .map((pairs): Attempt => ({
      label: 'query',
      path: `${endpoint.path(target)}?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`,
      init: valid(),
    }));
  const path = fc.constantFrom(...TRAVERSAL, ...SQL, ...BOUNDARY.filter(Boolean)).map((bad): Attempt => {
    const id = enc(bad);
    const hostile = { ...target, customerNumber: id, invoiceNumber: id, orderId: id, orderType: bad.length % 3 === 0 ? id : target.orderType, attachmentId: id, subscriptionId: id, inventoryId: id, lineId: id as unknown as number };
    return { label: 'path', path: endpoint.path(hostile), init: valid() };
  });
  const headers = fc
    .tuple(fc.constantFrom('ipp-company-id', 'ipp-application-type', 'x-request-id', 'accept', 'if-match', 'authorization', 'content-type', 'accept-encoding', 'x-forwarded-for'), fc.string({ unit: 'binary', maxLength: 300 }))
    .map(([name, value]): Attempt => {
      // fetch can only send ByteStrings without CR, LF or NUL; raw injection is tested over a socket.
      // Control characters are refused by Node's HTTP parser before any application code (the
      // connection is closed); those are sent over a raw socket in the raw case.
      const safe = [...value].filter((c) => { const code = c.charCodeAt(0); return code <= 0xff && (code === 9 || (code >= 0x20 && code !== 0x7f)); }).join('');
      const init = valid();
      (init.headers as Record<string, string>)[name] = name === 'authorization' ? `Bearer ${safe}` : safe;
      return { label: `header ${name}`, path: endpoint.path(target), init };
    });
  const options: Array<fc.Arbitrary<Attempt>> = [query, path, headers];
  if (endpoint.body === 'json') {
    const json = (label: string, body: fc.Arbitrary<string | Uint8Array>, contentType: fc.Arbitrary<string> = fc.constant('application/json')) =>
      fc.tuple(body, contentType).map(([payload, type]): Attempt => {
        const init = valid();
        if (type) (init.headers as Record<string, string>)['content-type'] = type;
        else delete (init.headers as Record<string, string>)['content-type'];
        init.body = payload;
        return { label, path: endpoint.path(target), init };
      });
    options.push(
      json('json fields', hostileObject.map((o) => JSON.stringify(o))),
      json('json valid+field', hostileObject.map((o) => JSON.stringify({ ...(endpoint.validBody?.(target) as object), ...o }))),
      json('json any', fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v))),
      json('json deep', fc.tuple(fc.integer({ min: 1000, max: 20_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([d, k]) => deepJson(d, k))),
      json('json huge', fc.integer({ min: 1, max: 3 }).map((mib) => JSON.stringify({ name: 'x'.repeat(mib * 1024 * 1024) }))),
      json('json many keys', fc.integer({ min: 1000, max: 50_000 }).map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`)),
      json('invalid utf-8', fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => Uint8Array.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, ...bytes, 0x22, 0x7d]))),
      json('truncated json', fc.jsonValue().map((v) => JSON.stringify({ a: v }).slice(0, -1))),
      json('wrong content type', fc.constant(JSON.stringify(endpoint.validBody?.(target) ?? {})), fc.constantFrom(...WRONG_CONTENT_TYPES)),
    );
  }
  if (endpoint.body === 'multipart') {
    const multipart = (label: string, build: fc.Arbitrary<{ body: string | Uint8Array; type: string }>) =>
      build.map(({ body, type }): Attempt => {
        const init = valid();
        (init.headers as Record<string, string>)['content-type'] = type;
        init.body = body;
        return { label, path: endpoint.path(target), init };
      });
    const boundary = 'relboundary';
    const part = (name: string, filename: string, content: string, extra = '') =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n${extra}Content-Type: text/plain\r\n\r\n${content}\r\n`;
    options.push(
      multipart('multipart file name', fc.oneof(fc.constantFrom(...TRAVERSAL, '../../../etc/passwd', 'C:\\fakepath\\..\\..\\a.txt', 'a\u0000b.txt', '\u202egnp.exe', '.', '..', ' ', 'x'.repeat(300)), hostileString).map((name) => ({
        body: `${part('file', name.replace(/"/g, '%22'), 'hostile bytes')}--${boundary}--\r\n`,
        type: `multipart/form-data; boundary=${boundary}`,
      }))),
      multipart('multipart many parts', fc.integer({ min: 100, max: 5000 }).map((n) => ({
        body: `${Array.from({ length: n }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('')}${part('file', 'a.txt', 'x')}--${boundary}--\r\n`,
        type: `multipart/form-data; boundary=${boundary}`,
      }))),
      multipart('multipart many files', fc.integer({ min: 2, max: 2000 }).map((n) => ({
        body: `${Array.from({ length: n }, (_, i) => part('file', `f${i}.txt`, 'x')).join('')}--${boundary}--\r\n`,
        type: `multipart/form-data; boundary=${boundary}`,
      }))),
      multipart('multipart huge header', fc.integer({ min: 8, max: 512 }).map((kib) => ({
        body: `${part('file', 'a.txt', 'x', `X-Pad: ${'p'.repeat(kib * 1024)}\r\n`)}--${boundary}--\r\n`,
        type: `multipart/form-data; boundary=${boundary}`,
      }))),
      multipart('multipart broken', fc.string({ unit: 'binary', maxLength: 500 }).map((junk) => ({
        body: `--${boundary}\r\n${junk}`,
        type: `multipart/form-data; boundary=${boundary}`,
      }))),
      multipart('multipart boundary', fc.constantFrom('', '"', 'a'.repeat(200), '--', '\u00ff').map((b) => ({
        body: part('file', 'a.txt', 'x'),
        type: `multipart/form-data; boundary=${b}`,
      }))),
    );
  }
  return fc.oneof(...options);
};

/** Raw requests fetch refuses to send: CR/LF and NUL in headers and the request line. */
function rawRequests(f: CompanyFixture, token: string): Array<{ label: string; raw: string }> {
  const auth = `Authorization: Bearer ${token}\r\nipp-company-id: ${f.company}\r\nipp-application-type: rel\r\n`;
  return [
    { label: 'CRLF in x-request-id', raw: `GET /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}x-request-id: a\rSet-Cookie: pwn=1\r\n\r\n` },
    { label: 'LF injection in header', raw: `GET /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}x-request-id: a\nSet-Cookie: pwn=1\r\n\r\n` },
    { label: 'control character in header', raw: `GET /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}x-request-id: a\u0001b\u007f\r\n\r\n` },
    { label: 'NUL in header', raw: `GET /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}ipp-application-type: a\u0000b\r\n\r\n` },
    { label: 'raw traversal path', raw: `GET /v1/customer/../../api/webhooks/subscriptions HTTP/1.1\r\nHost: x\r\n${auth}\r\n` },
    { label: 'raw encoded traversal', raw: `GET /v1/attachment/..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\n${auth}\r\n` },
    { label: 'NUL in path', raw: `GET /v1/customer/1%00 HTTP/1.1\r\nHost: x\r\n${auth}\r\n` },
    { label: 'space in path', raw: `GET /v1/customer/1 2 HTTP/1.1\r\nHost: x\r\n${auth}\r\n` },
    { label: 'duplicate company header', raw: `GET /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}ipp-company-id: 2000002\r\n\r\n` },
    { label: 'content-length and chunked', raw: `POST /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n` },
    { label: 'bad chunk size', raw: `POST /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n` },
    { label: 'huge header', raw: `GET /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}X-Big: ${'a'.repeat(100_000)}\r\n\r\n` },
    { label: 'invalid method', raw: `FOO /v1/customer HTTP/1.1\r\nHost: x\r\n${auth}\r\n` },
  ];
}

function sendRaw(baseUrl: string, raw: string): Promise<{ status: number; head: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw request hung'));
    }, REQUEST_TIMEOUT_MS);
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (data.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(data.slice(9, 12)), head: data.slice(0, data.indexOf('\r\n\r\n')) });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ status: Number(data.slice(9, 12)) || 0, head: data });
    });
    socket.write(raw, 'latin1');
  });
}

export function describeHostileInput(harness: () => Harness, fixture: () => CompanyFixture, figures: Record<string, unknown>): void {
  const tried: Record<string, number> = {};
  const findings: string[] = [];
  /** Whether accepted writes (the fixture's, or the last test's) may still have events landing. */
  let eventsInFlight = true;
  afterAll(() => {
    figures['hostileInput.seed'] = HOSTILE_SEED;
    const total = Object.values(tried).reduce((a, b) => a + b, 0);
    figures['hostileInput.requests'] = total;
    figures['hostileInput.byKind'] = tried;
    console.log(`hostile input: ${total} requests tried`, tried);
  });

  it.each(ENDPOINTS.map((e) => [`${e.method} ${e.name}`, e] as const))(
    '%s: generated hostile requests get a documented 4xx or a correct 2xx, never a 5xx or a hang, and rejections change nothing',
    async (_label, endpoint) => {
      const h = harness();
      const f = fixture();
      const base = await h.auth.headers({ company: f.company });
      const attempts = fc.sample(mutations(endpoint, f, base), { numRuns: HOSTILE_RUNS_PER_ENDPOINT, seed: HOSTILE_SEED + ENDPOINTS.indexOf(endpoint) });
      // After a test whose writes were accepted, their events may still be landing (copies in other services).
      const before = eventsInFlight ? await calmSnapshot(h) : await snapshot(h);
      let accepted = 0;
      const problems: string[] = [];
      for (let i = 0; i < attempts.length; i += 4) {
        await Promise.all(
          attempts.slice(i, i + 4).map(async (attempt) => {
            let response: Response;
            try {
              response = await h.call(attempt.path, attempt.init);
            } catch (err) {
              // fetch refuses to send some headers and values (a TypeError before any byte is sent):
              // those are not requests; the raw-socket case covers what fetch cannot send.
              if ((err as Error).name === 'TypeError' && (err as Error).message !== 'fetch failed') return;
              tried[attempt.label] = (tried[attempt.label] ?? 0) + 1;
              // A URL over Node's 16 KiB header limit is answered 431 by the HTTP parser, which then
              // closes the connection; a client still sending a body sees a reset. Refused, not hung.
              if ((err as Error).message === 'fetch failed' && attempt.path.length > 16 * 1024) return;
              problems.push(`no answer (${(err as Error).name}: ${(err as Error).message}) ${attempt.label} ${attempt.path.slice(0, 200)}`);
              return;
            }
            tried[attempt.label] = (tried[attempt.label] ?? 0) + 1;
            try {
              const body = await response.text();
              if (!DOCUMENTED.has(response.status)) problems.push(`${response.status} ${attempt.label} ${attempt.path.slice(0, 200)} ${body.slice(0, 200)}`);
              if (response.status < 300 && endpoint.method !== 'GET') accepted++;
              // 431 (URL and headers over Node's 16 KiB limit, refused by its HTTP parser) is rendered by
              // libs/bootstrap's clientErrorHandler, so it carries x-request-id like every other error.
              if (response.status >= 400 && !response.headers.get('x-request-id')) problems.push(`no x-request-id: ${response.status} ${attempt.label} ${attempt.path.slice(0, 120)}`);
              if (/at \w+ \(|node_modules|QueryFailedError|relation "|syntax error at/.test(body)) problems.push(`internal detail leaked: ${attempt.label} ${body.slice(0, 200)}`);
              if (endpoint.body === 'multipart' && response.status === 201) {
                const { name } = JSON.parse(body) as { name: string };
                // eslint-disable-next-line no-control-regex -- a NUL in a stored name is the finding
                if (/[/\\\u0000]|^\.\.?$/.test(name)) problems.push(`unsafe stored file name ${JSON.stringify(name)}`);
              }
            } catch (err) {
              problems.push(`body not read (${(err as Error).name}: ${(err as Error).message}) ${attempt.label} ${attempt.path.slice(0, 200)}`);
            }
          }),
        );
      }
      findings.push(...problems);
      expect(problems).toEqual([]);
      eventsInFlight = accepted > 0;
      if (accepted === 0) expect(await snapshot(h)).toEqual(before);
    },
    300_000,
  );

  it.each(ENDPOINTS.filter((e) => e.body === 'json').map((e) => [`${e.method} ${e.name}`, e] as const))(
    '%s: a NUL character in a text field is a 400, not a 500 (regression: PostgreSQL refuses U+0000)',
    async (_label, endpoint) => {
      const h = harness();
      const f = fixture();
      const init = requestInit(endpoint, f, await h.auth.headers({ company: f.company }));
      init.body = JSON.stringify({ ...(endpoint.validBody?.(f) as object), description: 'a\u0000b' });
      tried['nul in text'] = (tried['nul in text'] ?? 0) + 1;
      const response = await h.call(endpoint.path(f), init);
      await response.arrayBuffer();
      expect(response.status).toBe(400);
    },
  );

  it('raw requests with header injection, NUL, traversal and smuggling attempts are refused without 5xx or injected headers', async () => {
    const h = harness();
    const f = fixture();
    const token = await h.auth.token({ companies: [f.company] });
    const problems: string[] = [];
    for (const { label, raw } of rawRequests(f, token)) {
      tried['raw'] = (tried['raw'] ?? 0) + 1;
      const { status, head } = await sendRaw(h.system.baseUrl, raw);
      if (status >= 500 || (status !== 0 && !DOCUMENTED.has(status) && status !== 431 && status !== 505)) problems.push(`${label}: ${status}`);
      if (/set-cookie/i.test(head)) problems.push(`${label}: injected header echoed`);
    }
    expect(problems).toEqual([]);
  });
}
