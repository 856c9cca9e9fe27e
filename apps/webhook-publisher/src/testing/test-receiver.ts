import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PATIENCE_MS } from '@erp/testing';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body exactly as received (signatures are over these bytes). */
  body: string;
  json: { id: string; type: string; publisher: string; companyId: string; timestamp: string; data: Record<string, unknown> };
  receivedAt: number;
  /** The status this receiver answered with. */
  status?: number;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** Decides the answer to a request; `n` counts the requests so far (1-based). */
export type Responder = (webhook: ReceivedWebhook, n: number) => ReceiverAnswer | number;

/** A real HTTP receiver on a free port of 127.0.0.1 that records every request. */
export class TestReceiver {
  readonly received: ReceivedWebhook[] = [];
  private waiters: Array<{ check: () => boolean; resolve: () => void }> = [];
  responder: Responder = () => 204;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(responder?: Responder, path = '/hooks'): Promise<TestReceiver> {
    const holder: { receiver?: TestReceiver } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: ReceivedWebhook['json'];
        try {
          json = JSON.parse(body) as ReceivedWebhook['json'];
        } catch {
          json = {} as ReceivedWebhook['json'];
        }
        const webhook: ReceivedWebhook = { headers: request.headers, body, json, receivedAt: Date.now() };
        const r = holder.receiver;
        if (!r) return void response.writeHead(503).end();
        r.received.push(webhook);
        const answer = r.responder(webhook, r.received.length);
        const { status, headers, delayMs } = typeof answer === 'number' ? { status: answer, headers: {}, delayMs: 0 } : answer;
        webhook.status = status;
        const send = () => {
          response.writeHead(status, headers);
          response.end();
          r.notify();
        };
        if (delayMs) setTimeout(send, delayMs);
        else send();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new TestReceiver(server, `http://127.0.0.1:${port}${path}`);
    if (responder) receiver.responder = responder;
    holder.receiver = receiver;
    return receiver;
  }

  /** Distinct webhook-ids received so far. */
  distinctIds(): Set<string> {
    return new Set(this.received.map((r) => String(r.headers['webhook-id'])));
  }

  /** Resolves once `check` holds (re-checked after every request), or fails after the timeout. */
  async waitFor(check: (received: ReceivedWebhook[]) => boolean, timeoutMs = PATIENCE_MS, what = 'deliveries'): Promise<void> {
    if (check(this.received)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out waiting for ${what}; received ${this.received.length}`));
      }, timeoutMs);
      const waiter = {
        check: () => check(this.received),
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  waitForCount(count: number, timeoutMs?: number): Promise<void> {
    return this.waitFor((r) => r.length >= count, timeoutMs, `${count} requests`);
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.check()) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve();
      }
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
