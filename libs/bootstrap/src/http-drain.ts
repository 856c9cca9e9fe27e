import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/** Probes and scrapes: they keep coming while a replica drains and say nothing about its traffic. */
const PROBE_PATH = /^\/(?:health\/|metrics(?:[/?]|$))/;

/** How often the drain looks at its connections and the time of the last request. */
const CHECK_EVERY_MS = 50;

export interface DrainLimits {
  /** The listener stays open until no request (probes aside) arrived for this long. */
  quietMs: number;
  /** ... and closes after this long whatever its connections do. */
  maxMs: number;
}

/**
 * The first phase of a graceful shutdown, while the listener is still open. From `begin()`:
 * - readiness answers 503 (`DrainState` of @erp/observability), so load balancers stop sending;
 * - every answer closes its keep-alive connection (`Connection: close`), so a client's pooled
 *   connection leaves after the request it carries instead of being cut while idle, when a
 *   request may be crossing the wire towards it (the stale-connection race);
 * - except a 503: a 503 with `Connection: close` is the promise, to the gateway, that the request
 *   was not processed (Fastify's answer to a request arriving once the server is closing), and a
 *   handler's 503 (database unreachable) may come after a change was made.
 * `settled()` then waits until no request arrived for `quietMs` (the load balancers have taken the
 * replica out) and no idle connection is left (clients drop them before the `Keep-Alive: timeout`
 * the server announced), at most `maxMs`; only then does the listener close.
 */
export class HttpDrain {
  private draining = false;
  private lastRequestAt = 0;
  /** Open connections, with the number of requests each is serving. */
  private readonly connections = new Map<Socket, number>();
  private markNotReady: () => void = () => undefined;

  constructor(fastify: FastifyInstance) {
    fastify.server.on('connection', (socket: Socket) => {
      this.connections.set(socket, 0);
      socket.once('close', () => this.connections.delete(socket));
    });
    fastify.server.on('request', (request: { url?: string; socket: Socket }, response: NodeJS.EventEmitter) => {
      const socket = request.socket;
      if (!PROBE_PATH.test(request.url ?? '')) this.lastRequestAt = Date.now();
      this.connections.set(socket, (this.connections.get(socket) ?? 0) + 1);
      response.once('close', () => {
        const serving = this.connections.get(socket);
        if (serving !== undefined) this.connections.set(socket, serving - 1);
      });
    });
    fastify.addHook('preClose', async () => {
      // An app closed without closeGracefully (tests) drains the same way from here on.
      this.draining = true;
      // Node closes the idle keep-alive connections as the listener closes, but not one that never
      // sent a byte (a pre-connected client): the close would wait for it until HEADERS_TIMEOUT_MS.
      for (const [socket, serving] of this.connections) if (serving === 0 && socket.bytesRead === 0) socket.destroy();
    });
    fastify.addHook('onSend', async (_request, reply, payload) => {
      if (this.draining && reply.statusCode !== 503) reply.header('connection', 'close');
      return payload;
    });
  }

  /** Readiness to turn red on `begin()` (the app's `DrainState`, once the app exists). */
  reportTo(markNotReady: () => void): void {
    this.markNotReady = markNotReady;
  }

  begin(): void {
    this.draining = true;
    this.markNotReady();
  }

  /** Open connections serving no request. */
  idleConnections(): number {
    let idle = 0;
    for (const serving of this.connections.values()) if (serving === 0) idle++;
    return idle;
  }

  /** Resolves once the listener may close without cutting a connection a client is about to use. */
  async settled(limits: DrainLimits): Promise<void> {
    const began = Date.now();
    const deadline = began + limits.maxMs;
    while (Date.now() < deadline) {
      const quietSince = Math.max(began, this.lastRequestAt);
      if (Date.now() - quietSince >= limits.quietMs && this.idleConnections() === 0) return;
      await sleep(CHECK_EVERY_MS);
    }
  }
}

const drains = new WeakMap<INestApplication, HttpDrain>();

/** The drain `createServiceApp` set up for an app (none for an app made another way). */
export function httpDrainOf(app: INestApplication): HttpDrain | undefined {
  return drains.get(app);
}

export function attachHttpDrain(app: INestApplication, drain: HttpDrain): void {
  drains.set(app, drain);
}
