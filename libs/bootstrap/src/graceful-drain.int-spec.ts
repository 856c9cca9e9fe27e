import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Get, Module, ServiceUnavailableException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'undici';
import { createLogger, HealthModule } from '@erp/observability';
import { closeGracefully, createServiceApp, KEEP_ALIVE_CLOSE_GRACE_MS, listen } from './index';

const logger = createLogger({ service: 'graceful-drain-test', level: 'silent' });

/** Lets a test hold a request in flight for as long as it likes. */
let releaseSlow: () => void = () => undefined;
let slowInFlight = false;
let served = 0;

@Controller()
class WorkController {
  @Get('work')
  work(): { served: number } {
    return { served: ++served };
  }

  @Get('slow')
  async slow(): Promise<{ slow: true }> {
    slowInFlight = true;
    await new Promise<void>((resolve) => (releaseSlow = resolve));
    return { slow: true };
  }

  /** A handler's own 503 (database unreachable): it may come after a change was made. */
  @Get('unavailable')
  unavailable(): never {
    throw new ServiceUnavailableException('database unreachable');
  }
}

@Module({ imports: [HealthModule.forRoot()], controllers: [WorkController] })
class DrainTestModule {}

async function startApp(keepAliveTimeoutMs = 3000): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await createServiceApp(DrainTestModule, { logger, errorFamily: 'by-path', keepAliveTimeoutMs });
  return { app, url: await listen(app, 0, '127.0.0.1') };
}

/** Resolves with the ms from `since` until the app's listener closed. */
async function listenerClosed(app: NestFastifyApplication, since: number): Promise<number> {
  while (app.getHttpServer().listening) await sleep(10);
  return Date.now() - since;
}

/** Writes raw HTTP/1.1 on one socket and collects what comes back until the server closes it. */
function rawConnection(port: number): { socket: Socket; send(text: string): void; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => undefined);
  return { socket, send: (text) => socket.write(text), closed };
}

describe('graceful drain (createServiceApp, closeGracefully) on real sockets', () => {
  beforeEach(() => {
    served = 0;
    slowInFlight = false;
  });

  it('turns readiness to 503 at once and keeps serving, each answer closing its connection, until quiet', async () => {
    const { app, url } = await startApp();
    const client = new Client(url);
    try {
      expect((await client.request({ method: 'GET', path: '/health/ready' })).statusCode).toBe(200);
      const began = Date.now();
      const shutdown = closeGracefully(app, logger, 'SIGTERM', { timeoutMs: 10_000, drain: { quietMs: 600, maxMs: 5000 } });

      const ready = await client.request({ method: 'GET', path: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(await ready.body.json()).toMatchObject({ status: 'shutting_down', error: { shutdown: { status: 'down' } } });
      // Requests keep coming for a while (a load balancer that has not noticed yet): all served.
      let lastRequest = 0;
      for (let i = 0; i < 5; i++) {
        if (i > 0) await sleep(100);
        lastRequest = Date.now();
        const work = await client.request({ method: 'GET', path: '/work' });
        expect(work.statusCode).toBe(200);
        expect(work.headers['connection']).toBe('close');
        await work.body.dump();
      }
      expect(app.getHttpServer().listening).toBe(true);
      const closedAfter = await listenerClosed(app, began);
      expect(Date.now() - lastRequest).toBeGreaterThanOrEqual(550);
      expect(closedAfter).toBeLessThan(5000);
      expect(await shutdown).toBe(0);
      expect(served).toBe(5);
    } finally {
      await client.destroy();
    }
  });

  it('keeps the listener open until a client drops its idle keep-alive connection, as Keep-Alive told it', async () => {
    const { app, url } = await startApp(3000);
    // undici reads `Keep-Alive: timeout=3` and drops the idle connection 2 s before: after 1 s.
    const client = new Client(url);
    try {
      const work = await client.request({ method: 'GET', path: '/work' });
      expect(work.headers['keep-alive']).toBe('timeout=3');
      await work.body.dump();
      const began = Date.now();
      const shutdown = closeGracefully(app, logger, 'SIGTERM', { timeoutMs: 10_000, drain: { quietMs: 100, maxMs: 8000 } });
      const closedAfter = await listenerClosed(app, began);
      // Not at the quiet period (the connection was still open), not at the limit: when undici let go.
      expect(closedAfter).toBeGreaterThanOrEqual(800);
      expect(closedAfter).toBeLessThan(3000);
      expect(await shutdown).toBe(0);
    } finally {
      await client.destroy();
    }
  });

  it('announces its keep-alive timeout and closes an idle connection only KEEP_ALIVE_CLOSE_GRACE_MS after it', async () => {
    const { app, url } = await startApp(1000);
    try {
      const conn = rawConnection(Number(new URL(url).port));
      conn.send('GET /work HTTP/1.1\r\nHost: x\r\n\r\n');
      const answered = Date.now();
      const received = await conn.closed;
      expect(received).toMatch(/\r\nkeep-alive: timeout=1\r\n/i);
      // undici, told 1 s, lets go at once (2 s before); a late client still has 5 s more.
      expect(Date.now() - answered).toBeGreaterThanOrEqual(1000 + KEEP_ALIVE_CLOSE_GRACE_MS - 100);
    } finally {
      await app.close();
    }
  });

  it('closes at the limit when a connection stays idle (a client that ignores Keep-Alive), and closes that one too', async () => {
    const { app, url } = await startApp();
    const idle = rawConnection(Number(new URL(url).port));
    await new Promise((resolve) => idle.socket.once('connect', resolve));
    const began = Date.now();
    const shutdown = closeGracefully(app, logger, 'SIGTERM', { timeoutMs: 10_000, drain: { quietMs: 100, maxMs: 1500 } });
    const closedAfter = await listenerClosed(app, began);
    expect(closedAfter).toBeGreaterThanOrEqual(1400);
    expect(await shutdown).toBe(0);
    await idle.closed;
  });

  it('finishes a request in flight after the listener closed; a request pipelined behind it is never run', async () => {
    const { app, url } = await startApp();
    const conn = rawConnection(Number(new URL(url).port));
    conn.send('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!slowInFlight) await sleep(10);
    const shutdown = closeGracefully(app, logger, 'SIGTERM', { timeoutMs: 10_000, drain: { quietMs: 100, maxMs: 1000 } });
    await listenerClosed(app, Date.now());
    // Behind the request in flight, on the same connection, once the listener closed.
    conn.send('GET /work HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(100);
    releaseSlow();
    const received = await conn.closed;
    expect(await shutdown).toBe(0);
    // One answer, which closed the connection: the client knows the second request was not processed.
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(served).toBe(0);
  });

  it("leaves a handler's 503 its keep-alive connection: 503 + Connection: close means 'not processed'", async () => {
    const { app, url } = await startApp();
    const client = new Client(url);
    try {
      const shutdown = closeGracefully(app, logger, 'SIGTERM', { timeoutMs: 10_000, drain: { quietMs: 300, maxMs: 4000 } });
      const unavailable = await client.request({ method: 'GET', path: '/unavailable' });
      expect(unavailable.statusCode).toBe(503);
      expect(unavailable.headers['connection']).not.toBe('close');
      await unavailable.body.dump();
      await client.close();
      expect(await shutdown).toBe(0);
    } finally {
      await client.destroy();
    }
  });
});
