import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { type RequestLogging, requestLogController } from './request-log';

/** A Fastify app with the service's log controller, its pino lines read back as objects. */
async function appLogging(mode: RequestLogging) {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'info' }, destination), logController: requestLogController(mode) });
  app.get('/v1/customer', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('broken on purpose');
  });
  // Over a real socket: the lines are those of real HTTP requests.
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const get = async (path: string) => {
    await (await fetch(`${base}${path}`)).arrayBuffer();
    // The completion line is written once the answer has gone out; close waits for it.
    await app.close();
  };
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; requestId?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
  return { get, lines };
}

describe('requestLogController', () => {
  it('completed: one line per request, with the request, the response, the time and the request id', async () => {
    const { get, lines } = await appLogging('completed');
    await get('/v1/customer?pageSize=5');
    const requestLines = lines().filter((line) => line.req || line.res);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/v1/customer?pageSize=5' }, res: { statusCode: 200 } });
    expect(requestLines[0]?.requestId).toEqual(expect.any(String));
    expect(requestLines[0]?.responseTime).toEqual(expect.any(Number));
  });

  it('completed: a failed request still gets its line, with the status', async () => {
    const { get, lines } = await appLogging('completed');
    await get('/fails');
    const completed = lines().filter((line) => line.msg === 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ req: { url: '/fails' }, res: { statusCode: 500 } });
  });

  it("all: Fastify's two lines, arrival and completion", async () => {
    const { get, lines } = await appLogging('all');
    await get('/v1/customer');
    expect(lines().filter((line) => line.req || line.res).map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('off: no request lines', async () => {
    const { get, lines } = await appLogging('off');
    await get('/v1/customer');
    expect(lines().filter((line) => line.req || line.res)).toEqual([]);
  });
});
