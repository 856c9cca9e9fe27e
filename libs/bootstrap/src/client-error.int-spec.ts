import { connect } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger } from '@erp/observability';
import { createServiceApp, listen } from './index';
import { requestPath } from './client-error';

@Controller()
class PingController {
  @Get('v1/ping')
  ping(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/** Sends raw bytes (what fetch cannot send) and reads the answer until the server closes. */
function rawRequest(port: number, chunks: string[], timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms: ${received}`));
    }, timeoutMs);
    socket.on('data', (data) => (received += data.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head, body = ''] = received.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, closed: true });
    });
    for (const chunk of chunks) socket.write(chunk);
  });
}

/** Requests Node's HTTP parser refuses before Fastify runs, answered in the API's own error shapes. */
describe('parser-level client errors', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createServiceApp(PingModule, {
      logger: createLogger({ service: 'client-error-test', level: 'silent' }),
      errorFamily: 'by-path',
      timeouts: { headersTimeoutMs: 1_000 },
    });
    port = Number(new URL(await listen(app, 0, '127.0.0.1')).port);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers URL + headers over 16 KiB on a /v1 path with 431 in the v1 shape, x-request-id, then closes', async () => {
    const answer = await rawRequest(port, [`GET /v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers['connection']).toBe('close');
    const body = JSON.parse(answer.body) as Record<string, string>;
    expect(body).toMatchObject({ ExceptionType: 'ValidationException', ExceptionFaultCode: '10403' });
    expect(Buffer.byteLength(answer.body)).toBe(Number(answer.headers['content-length']));
  });

  it('answers the same on an /api path as problem+json', async () => {
    const answer = await rawRequest(port, [`GET /api/v3/SalesOrders?x=${'b'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, type: 'urn:erp:problem:headers-too-large', instance: '/api/v3/SalesOrders' });
  });

  it('answers headers that arrive too slowly with 408 (problem+json: a timeout carries no request line)', async () => {
    const answer = await rawRequest(port, ['GET /v1/ping HTTP/1.1\r\nHost: x\r\n'], 15_000);
    expect(answer.status).toBe(408);
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 408, type: 'urn:erp:problem:request-timeout' });
  });

  it('answers malformed HTTP with 400, and still serves the next connection', async () => {
    const answer = await rawRequest(port, ['GET /v1/ping HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n']);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ ExceptionFaultCode: '10001' });
    const ok = await fetch(`http://127.0.0.1:${port}/v1/ping`);
    expect(ok.status).toBe(200);
  });
});

describe('requestPath', () => {
  it('reads the path of the request line, without the query, and / when unreadable', () => {
    expect(requestPath(Buffer.from('GET /v1/customer?x=1 HTTP/1.1\r\n'))).toBe('/v1/customer');
    expect(requestPath(Buffer.from('POST /api/v3/SalesOrders HTTP/1.1'))).toBe('/api/v3/SalesOrders');
    expect(requestPath(Buffer.from('\u0000garbage'))).toBe('/');
    expect(requestPath(undefined)).toBe('/');
  });
});
