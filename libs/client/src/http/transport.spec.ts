import { ErpApiError, ErpAuthError, ErpNetworkError } from '../errors';
import { ErpClient } from '../erp-client';

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

function clientWith(handler: Handler, options: { token?: string | (() => Promise<string>); retries?: number; timeoutMs?: number; companyId?: string } = {}) {
  const calls: { url: URL; headers: Headers; method: string }[] = [];
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push({ url, headers: new Headers(init.headers), method: init.method ?? 'GET' });
    return handler(url, init);
  }) as typeof globalThis.fetch;
  const client = new ErpClient({ baseUrl: 'http://erp.test/', token: options.token ?? 'tok', companyId: options.companyId, fetch, retries: options.retries ?? 0, timeoutMs: options.timeoutMs, maxRetryDelayMs: 2000 });
  return { client, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const postIgnoringErrors = (client: ErpClient) => client.request('POST', '/v1/customer', { body: {} }).catch(() => undefined);

describe('ErpClient requests', () => {
  it('sends the bearer token, ipp-company-id, ipp-application-type, Accept and a user agent on every request', async () => {
    let n = 0;
    const { client, calls } = clientWith(() => json(200, {}), { token: async () => `tok${++n}`, companyId: '1000001' });
    await client.request('GET', '/v1/customer/1');
    await client.request('GET', '/v1/customer/2');
    expect(calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer tok1', 'Bearer tok2']);
    expect(calls[0].headers.get('ipp-company-id')).toBe('1000001');
    expect(calls[0].headers.get('ipp-application-type')).toBe('erp-client');
    expect(calls[0].headers.get('accept')).toBe('application/json');
    expect(calls[0].headers.get('user-agent')).toMatch(/^@erp\/client\//);
  });

  it('sends objects as JSON, repeats array query values and answers status, headers and parsed data', async () => {
    const { client, calls } = clientWith(async (_url, init) => json(201, { echoed: JSON.parse(String(init.body)) }, { etag: '"7"' }));
    const response = await client.request('POST', 'api/v3/SalesOrders', { query: { expand: ['lines', 'note'], skip: undefined }, body: { a: 1 } });
    expect(response).toEqual({ status: 201, headers: expect.any(Headers), data: { echoed: { a: 1 } } });
    expect(response.headers.get('etag')).toBe('"7"');
    expect(calls[0].url.toString()).toBe('http://erp.test/api/v3/SalesOrders?expand=lines&expand=note');
    expect(calls[0].headers.get('content-type')).toBe('application/json');
  });

  it('throws ErpApiError with the v1 fault code, message and request id', async () => {
    const { client } = clientWith(() =>
      json(404, { ExceptionType: 'NotFound', ExceptionMessage: 'Customer 9 not found', ExceptionFaultCode: '10201', ExceptionMessageID: '10201_x', ExceptionDetails: '' }, { 'x-request-id': 'req-1' }),
    );
    const error = (await client.request('GET', '/v1/customer/9').catch((e: unknown) => e)) as ErpApiError;
    expect(error).toBeInstanceOf(ErpApiError);
    expect(error).toEqual(expect.objectContaining({ status: 404, code: '10201', requestId: 'req-1', method: 'GET' }));
    expect(error.message).toContain('Customer 9 not found');
  });

  it('throws ErpApiError with the problem type as code for problem+json', async () => {
    const { client } = clientWith(
      () => new Response(JSON.stringify({ type: 'urn:erp:problem:precondition-failed', title: 'Precondition Failed', status: 412, detail: 'stale' }), { status: 412, headers: { 'content-type': 'application/problem+json' } }),
    );
    await expect(client.request('PATCH', '/api/v3/SalesOrders/SO/1', { body: {} })).rejects.toEqual(expect.objectContaining({ status: 412, code: 'precondition-failed' }));
  });

  it.each([401, 403])('throws ErpAuthError (an ErpApiError) for %i', async (status) => {
    const { client } = clientWith(() => json(status, { ExceptionFaultCode: String(10100 + status - 400), ExceptionMessage: 'no' }));
    const error = await client.request('GET', '/v1/customer').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErpAuthError);
    expect(error).toBeInstanceOf(ErpApiError);
  });

  it('throws ErpNetworkError when the connection fails, and when no answer comes within timeoutMs', async () => {
    const refused = clientWith(() => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    });
    await expect(refused.client.request('GET', '/v1/customer')).rejects.toThrow(/ECONNREFUSED/);
    await expect(refused.client.request('GET', '/v1/customer')).rejects.toBeInstanceOf(ErpNetworkError);

    const silent = clientWith((_url, init) => new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))), { timeoutMs: 50 });
    await expect(silent.client.request('GET', '/v1/customer')).rejects.toThrow(/no answer within 50 ms/);
  });

  it('treats a 2xx JSON body that does not parse (a stream cut short) as a network failure', async () => {
    const { client } = clientWith(() => new Response('{"value":[{"a":1},', { status: 200, headers: { 'content-type': 'application/json' } }));
    await expect(client.request('GET', '/api/v3/SalesOrders')).rejects.toBeInstanceOf(ErpNetworkError);
  });

  it('retries a GET after 503 with Retry-After, but never a PUT or DELETE (they carry no key)', async () => {
    let n = 0;
    const { client, calls } = clientWith(() => (++n === 1 ? json(503, { type: 'urn:erp:problem:service-unavailable' }, { 'retry-after': '1' }) : json(200, { ok: true })), { retries: 2 });
    const started = Date.now();
    expect((await client.request('GET', '/v1/customer')).data).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(calls).toHaveLength(2);

    for (const method of ['PUT', 'DELETE']) {
      const writes = clientWith(() => json(503, {}, { 'retry-after': '0' }), { retries: 2 });
      await expect(writes.client.request(method, '/v1/customer/1', { body: {} })).rejects.toEqual(expect.objectContaining({ status: 503, retryAfter: 0 }));
      expect(writes.calls).toHaveLength(1);
      expect(writes.calls[0].headers.get('idempotency-key')).toBeNull();
    }
  });

  it('sends every POST and PATCH with a fresh Idempotency-Key, and the same key on each retry after a cut connection, a 429, a 503 or a 409 for the key in use', async () => {
    const answers = [
      () => {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
      },
      () => json(429, {}, { 'retry-after': '0' }),
      () => json(503, {}, { 'retry-after': '0' }),
      () => json(409, { ExceptionFaultCode: '10304', ExceptionMessage: 'still running' }, { 'retry-after': '0' }),
      () => json(201, { number: '10001' }),
    ];
    let n = 0;
    const { client, calls } = clientWith(() => answers[n++]!(), { retries: 4 });
    expect((await client.request('POST', '/v1/customer', { body: { name: 'A' } })).data).toEqual({ number: '10001' });
    const keys = calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    await client.request('PATCH', '/api/v3/SalesOrders/SO/1', { body: {} }).catch(() => undefined);
    expect(calls[5]!.headers.get('idempotency-key')).not.toBe(keys[0]);
  });

  it("keeps the caller's key, and gives it on the error of a write that failed for good", async () => {
    const { client, calls } = clientWith(() => json(503, {}, { 'retry-after': '0' }), { retries: 1 });
    const error = (await client.request('POST', '/v1/customer', { body: {}, headers: { 'Idempotency-Key': 'mine-1' } }).catch((e: unknown) => e)) as ErpApiError;
    expect(calls.map((c) => c.headers.get('idempotency-key'))).toEqual(['mine-1', 'mine-1']);
    expect([error.status, error.idempotencyKey]).toEqual([503, 'mine-1']);
  });

  it('never sends a streamed body twice, and never retries another 409 or a 4xx', async () => {
    const stream = clientWith(() => json(503, {}, { 'retry-after': '0' }), { retries: 2 });
    const body = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('x')), c.close()) });
    await expect(stream.client.request('POST', '/v1/attachment', { body })).rejects.toEqual(expect.objectContaining({ status: 503 }));
    expect(stream.calls).toHaveLength(1);
    for (const answer of [json(409, { ExceptionFaultCode: '10303' }), json(422, {}), json(400, {})]) {
      const other = clientWith(() => answer.clone(), { retries: 2 });
      await postIgnoringErrors(other.client);
      expect(other.calls).toHaveLength(1);
    }
  });

  it('does not retry when Retry-After asks for longer than maxRetryDelayMs', async () => {
    const { client, calls } = clientWith(() => json(429, {}, { 'retry-after': '120' }), { retries: 3 });
    await expect(client.request('GET', '/v1/customer')).rejects.toEqual(expect.objectContaining({ status: 429, retryAfter: 120 }));
    expect(calls).toHaveLength(1);
  });

  it('refuses an absolute URL as a path, so the token never goes to another host', async () => {
    const { client, calls } = clientWith(() => json(200, {}));
    await expect(client.request('GET', 'https://elsewhere.example/v1/customer')).rejects.toThrow(TypeError);
    expect(calls).toHaveLength(0);
  });
});
