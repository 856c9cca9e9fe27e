import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';

/**
 * Upstreams for the gateway's retry tests, each a real server on a real socket behaving as a
 * replica does at a bad moment. Every one records what reached it, by the test's `x-test-id`.
 */
export interface FakeUpstream {
  url: string;
  /** The x-test-id of each request that reached the server (read, in part or whole). */
  seen: string[];
  /** TCP connections the server accepted. */
  connections: number;
  close(): Promise<void>;
}

export interface HealthyAnswer {
  replica: string;
  method: string;
  bodyBytes: number;
  bodySha256: string;
  /** The Content-Type the request arrived with. */
  contentType?: string;
}

/** A free port, given back at once: a connection to it is refused. */
export async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function testId(request: IncomingMessage): string {
  return String(request.headers['x-test-id'] ?? '');
}

async function listening(server: Server | TcpServer, fake: Omit<FakeUpstream, 'url' | 'close'>): Promise<FakeUpstream> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    fake.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** Reads the whole body and answers 200 with what it got (a replica that works). */
export function healthyUpstream(name = 'healthy'): Promise<FakeUpstream> {
  const fake = { seen: [] as string[], connections: 0 };
  const server = createHttpServer((request, response) => {
    fake.seen.push(testId(request));
    const hash = createHash('sha256');
    let bodyBytes = 0;
    request.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
      hash.update(chunk);
    });
    request.on('end', () => {
      const answer: HealthyAnswer = { replica: name, method: request.method ?? '', bodyBytes, bodySha256: hash.digest('hex'), contentType: request.headers['content-type'] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return listening(server, fake);
}

/**
 * Keeps connections alive without announcing for how long, then closes each one `idleMs` after
 * its last answer: the classic source of stale pooled connections.
 */
export function idleClosingUpstream(idleMs: number): Promise<FakeUpstream> {
  const fake = { seen: [] as string[], connections: 0 };
  const server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
    fake.seen.push(testId(request));
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ replica: 'idle-closing' }));
      const socket = request.socket;
      response.once('finish', () => {
        const served = fake.seen.length;
        setTimeout(() => {
          if (fake.seen.length === served) socket.destroy();
        }, idleMs);
      });
    });
  });
  server.keepAliveTimeout = 0; // no server timeout, so no `Keep-Alive: timeout` announced
  return listening(server, fake);
}

/** Answers 503 with `Connection: close` at once, reading none of the body (a draining replica). */
export function drainingUpstream(): Promise<FakeUpstream> {
  const fake = { seen: [] as string[], connections: 0 };
  const server = createHttpServer((request, response) => {
    fake.seen.push(testId(request));
    response.writeHead(503, { connection: 'close', 'content-type': 'application/json' }).end('{"draining":true}');
  });
  return listening(server, fake);
}

/** Answers 503 and keeps the connection (a service whose database is unreachable). */
export function unavailableUpstream(): Promise<FakeUpstream> {
  const fake = { seen: [] as string[], connections: 0 };
  const server = createHttpServer((request, response) => {
    fake.seen.push(testId(request));
    request.resume();
    request.on('end', () => response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"database":"down"}'));
  });
  return listening(server, fake);
}

/**
 * Reads the request's head, then resets the connection (RST) without answering: a replica that
 * died while working on a request it had read, which it may have acted on.
 */
export function resettingUpstream(): Promise<FakeUpstream> {
  const fake = { seen: [] as string[], connections: 0 };
  const server = createTcpServer((socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      fake.seen.push(/\r\nx-test-id: ([^\r]*)/i.exec(head)?.[1] ?? '');
      socket.removeAllListeners('data');
      socket.resetAndDestroy();
    });
    socket.on('error', () => undefined);
  });
  return listening(server, fake);
}

/** Reads the request and never answers (the gateway's response timeout ends it). */
export function silentUpstream(): Promise<FakeUpstream> {
  const fake = { seen: [] as string[], connections: 0 };
  const server = createHttpServer((request) => {
    fake.seen.push(testId(request));
    request.resume();
  });
  return listening(server, fake);
}

/** A port nothing listens on (a replica that stopped, or has not started yet). */
export async function refusingUpstream(): Promise<FakeUpstream> {
  return { url: `http://127.0.0.1:${await freePort()}`, seen: [], connections: 0, close: async () => undefined };
}
