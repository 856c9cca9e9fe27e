import { buffer } from 'node:stream/consumers';
import { ErpApiError, ErpNetworkError } from '../errors';
import { ErpClient } from '../erp-client';

function clientAnswering(handler: (url: URL, headers: Headers) => Response) {
  const seen: { url: URL; headers: Headers }[] = [];
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    seen.push({ url, headers });
    return handler(url, headers);
  }) as typeof globalThis.fetch;
  return { client: new ErpClient({ baseUrl: 'http://erp.test', token: 't', fetch, retries: 0 }), seen };
}

describe('attachments', () => {
  it('download asks for the Base64 text and decodes it', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253]);
    const { client, seen } = clientAnswering(() => new Response(bytes.toString('base64'), { headers: { 'content-type': 'text/plain; charset=us-ascii' } }));
    expect(await client.attachments.download('a1', { revision: 2 })).toEqual(bytes);
    expect(seen[0].headers.get('accept')).toBe('text/plain');
    expect(seen[0].url.pathname + seen[0].url.search).toBe('/v1/attachment/a1?revision=2');
  });

  it('download refuses an answer that is not Base64 instead of returning garbage bytes', async () => {
    const { client } = clientAnswering(() => new Response('<html>oops</html>', { headers: { 'content-type': 'text/plain' } }));
    await expect(client.attachments.download('a1')).rejects.toThrow(/not Base64/);
  });

  it('open streams the raw representation with its size and progress', async () => {
    const bytes = Buffer.alloc(300_000, 7);
    const { client, seen } = clientAnswering(() => new Response(bytes, { headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) } }));
    const progress: number[] = [];
    const { stream, size } = await client.attachments.open('a1', { onProgress: (n) => progress.push(n) });
    expect(seen[0].headers.get('accept')).toBe('application/octet-stream');
    expect(size).toBe(bytes.length);
    // Buffer.equals: Jest's deep equality walks large buffers byte by byte, slowly.
    expect((await buffer(stream)).equals(bytes)).toBe(true);
    expect(progress[progress.length - 1]).toBe(bytes.length);
  });

  it('a stream shorter than its Content-Length ends in ErpNetworkError, not a shorter file', async () => {
    const { client } = clientAnswering(() => new Response(Buffer.alloc(10), { headers: { 'content-length': '20' } }));
    await expect(buffer(client.attachments.downloadStream('a1'))).rejects.toBeInstanceOf(ErpNetworkError);
  });

  it('downloadStream reports a 404 as the stream error', async () => {
    const { client } = clientAnswering(() => new Response(JSON.stringify({ ExceptionFaultCode: '10201', ExceptionMessage: 'not found' }), { status: 404, headers: { 'content-type': 'application/json' } }));
    await expect(buffer(client.attachments.downloadStream('a1'))).rejects.toBeInstanceOf(ErpApiError);
  });

  it('upload retries a 404 for in-memory data within waitForOwnerMs, and sends one file part per request', async () => {
    let calls = 0;
    const { client, seen } = clientAnswering(() =>
      ++calls < 3
        ? new Response(JSON.stringify({ ExceptionFaultCode: '10201' }), { status: 404, headers: { 'content-type': 'application/json' } })
        : new Response(JSON.stringify({ id: 'a1', revision: 1 }), { status: 201, headers: { 'content-type': 'application/json' } }),
    );
    expect(await client.attachments.upload({ type: 'customer', id: 'C 1' }, { fileName: 'a.txt', data: Buffer.from('x') }, { waitForOwnerMs: 10_000 })).toEqual({ id: 'a1', revision: 1 });
    expect(seen).toHaveLength(3);
    expect(seen[2].url.pathname).toBe('/v1/customer/C%201/Attachment');
    expect(seen[2].headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    await expect(client.attachments.upload({ type: 'salesOrder' as 'customer', id: '1' }, { fileName: 'a', data: Buffer.from('x') })).rejects.toThrow(TypeError);
  });

  it('sends an upload of bytes again, framed afresh, with the same Idempotency-Key after a cut connection or a 503', async () => {
    let n = 0;
    const bodies: string[] = [];
    const keys: Array<string | null> = [];
    const fetch = (async (_input: string | URL, init: RequestInit = {}) => {
      keys.push(new Headers(init.headers).get('idempotency-key'));
      bodies.push((await new Response(init.body as ReadableStream).text()).replace(/----erp-client-[0-9a-f]+/g, 'BOUNDARY'));
      n += 1;
      if (n === 1) throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
      if (n === 2) return new Response('{}', { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } });
      return new Response('{"id":"a1","revision":1}', { status: 201, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const client = new ErpClient({ baseUrl: 'http://erp.test', token: 't', fetch, retries: 2 });
    const created = await client.attachments.upload({ type: 'customer', id: '10001' }, { fileName: 'a.pdf', data: Buffer.from('the bytes') });
    expect(created).toEqual({ id: 'a1', revision: 1 });
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toContain('the bytes');
  });
});

