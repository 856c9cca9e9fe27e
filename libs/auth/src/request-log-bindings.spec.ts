import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { bindRequestLog } from './request-log-bindings';

/** A Fastify app logging to a buffer; its route binds the company as the AuthGuard does. */
async function appBindingCompany() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'info' }, destination) });
  const seen: Array<{ sameAsReply: boolean; logger: FastifyBaseLogger }> = [];
  app.get('/v1/customer', async (request, reply) => {
    bindRequestLog(request, { companyId: request.headers['ipp-company-id'] });
    seen.push({ sameAsReply: request.log === reply.log, logger: request.log });
    request.log.info('inside the handler');
    return { ok: true };
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; companyId?: string; reqId?: string });
  return { app, base, seen, lines };
}

describe('bindRequestLog', () => {
  it("puts the company on the request's own lines, the request line included, and on no other request's", async () => {
    const { app, base, seen, lines } = await appBindingCompany();
    for (const company of ['1000001', '1000002']) {
      await (await fetch(`${base}/v1/customer`, { headers: { 'ipp-company-id': company } })).arrayBuffer();
    }
    await app.close();
    const byRequest = new Map<string, Set<string | undefined>>();
    for (const line of lines().filter((l) => l.reqId !== undefined)) {
      byRequest.set(line.reqId as string, (byRequest.get(line.reqId as string) ?? new Set()).add(`${line.msg}:${line.companyId}`));
    }
    expect([...byRequest.values()].map((set) => [...set].sort())).toEqual([
      ['incoming request:undefined', 'inside the handler:1000001', 'request completed:1000001'],
      ['incoming request:undefined', 'inside the handler:1000002', 'request completed:1000002'],
    ]);
    // No new logger per request beyond Fastify's own child: the reply's logger is the request's.
    expect(seen.map((s) => s.sameAsReply)).toEqual([true, true]);
    expect(seen[0].logger).not.toBe(seen[1].logger);
  });

  it('gives a logger without setBindings a child instead', () => {
    const child = { info: jest.fn() } as unknown as FastifyBaseLogger;
    const log = { child: jest.fn(() => child) } as unknown as FastifyBaseLogger;
    const request = { log } as { log: FastifyBaseLogger };
    bindRequestLog(request as never, { companyId: '1000001' });
    expect(log.child).toHaveBeenCalledWith({ companyId: '1000001' });
    expect(request.log).toBe(child);
  });
});
