import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { measureMixed, type MixedOperation } from './mixed-load';
import type { BenchContext } from './scenario';

// measureMixed against a tiny real HTTP server: a write that loses its If-Match race (412) is an
// expected outcome, counted by status and kept out of errors, non-2xx and throughput.
describe('measureMixed', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    let version = 0;
    server = createServer((request, response) => {
      if (request.method === 'GET') {
        response.writeHead(200, { etag: `"${version}"` }).end('{}');
      } else if (request.headers['if-match'] === `"${version}"` && request.url === '/win') {
        version++;
        response.writeHead(204).end();
      } else if (request.url === '/broken') {
        response.writeHead(500).end();
      } else {
        response.writeHead(412).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const write = (name: string, path: string): MixedOperation => ({
    name,
    weight: 1,
    async run(send) {
      const read = await send(`${name} read`, 'svc', { method: 'GET', path: '/' });
      await send(name, 'svc', { method: 'PUT', path, headers: { 'if-match': read.etag ?? '' } });
    },
  });
  const context = (): BenchContext =>
    ({ load: { connections: 1, durationSeconds: 1, warmupSeconds: 0, rounds: 1 }, pids: {}, seed: 1, log: () => undefined }) as unknown as BenchContext;

  it('counts 412 apart from errors and from the 2xx throughput, per operation and overall', async () => {
    const [result] = await measureMixed(context(), [{ name: 'local', baseUrls: { svc: url }, headers: {} }], [write('lose', '/lose'), write('win', '/win')], 4);
    const lose = result.operations['lose'];
    expect(lose.statusCounts).toEqual({ '412': lose.requests });
    expect([lose.rps, lose.errors, lose.non2xx]).toEqual([0, 0, 0]);
    expect(result.operations['win'].statusCounts?.['204']).toBeGreaterThan(0);
    expect(result.all.non2xx).toBe(0);
    expect(result.all.errors).toBe(0);
    const ok = (result.all.statusCounts?.['200'] ?? 0) + (result.all.statusCounts?.['204'] ?? 0);
    // rps is 2xx answers per second of the unrounded clock reading; durationSeconds is that reading
    // rounded to two decimals (so within 0.005 s of it), and rps itself is rounded to two decimals.
    const d = result.all.durationSeconds;
    expect(result.all.rps).toBeGreaterThanOrEqual(ok / (d + 0.005) - 0.005);
    expect(result.all.rps).toBeLessThanOrEqual(ok / (d - 0.005) + 0.005);
    expect(ok).toBeGreaterThan(0);
    expect(result.all.p99Ms).toBeGreaterThanOrEqual(result.all.p50Ms);
  }, 30_000);

  it('counts any other non-2xx as non-2xx', async () => {
    const [result] = await measureMixed(context(), [{ name: 'local', baseUrls: { svc: url }, headers: {} }], [write('broken', '/broken')], 2);
    expect(result.operations['broken'].non2xx).toBe(result.operations['broken'].requests);
    expect(result.all.non2xx).toBeGreaterThan(0);
  }, 30_000);
});
