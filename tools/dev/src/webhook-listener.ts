import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery that arrived at the local receiver. */
export interface ListenedDelivery {
  verified: boolean;
  /** Why the signature did not verify (when `verified` is false). */
  problem?: string;
  subscriptionId: string;
  webhookId: string;
  body: { id?: string; type?: string; publisher?: string; companyId?: string; timestamp?: string; data?: unknown };
  rawBody: string;
  headers: IncomingHttpHeaders;
}

export interface WebhookListenerOptions {
  /** The API's base URL (the gateway), e.g. http://localhost:3000. */
  baseUrl: string;
  /** A bearer token with `webhooks:manage` for the company. */
  token: string;
  companyId: string;
  /** Event types to subscribe to; default every type of every publisher. */
  eventTypes?: string[];
  /** Interface and port the receiver listens on; default 127.0.0.1 and a free port. */
  host?: string;
  port?: number;
  onDelivery(delivery: ListenedDelivery): void;
}

export interface WebhookListener {
  /** The receiver's URL the subscriptions point to. */
  url: string;
  /** The subscriptions made for it; `secret` lets a caller check the compatibility signature too. */
  subscriptions: Array<{ id: string; publisher: string; eventTypes: string[]; secret: string }>;
  /** Deletes the subscriptions and stops the receiver. */
  stop(): Promise<void>;
}

interface PublisherCatalog {
  value: Array<{ name: string; eventTypes: Array<{ type: string }> }>;
}

/**
 * A local webhook receiver for developers, like other platforms' "listen" commands: starts an
 * HTTP receiver, subscribes it through the management API (one subscription per publisher the
 * chosen event types belong to), verifies each delivery's Standard Webhooks signature with the
 * secret it was given, and hands it to `onDelivery`. `stop()` deletes the subscriptions.
 */
export async function startWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
  const api = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> => {
    const response = await fetch(`${options.baseUrl.replace(/\/$/, '')}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${options.token}`,
        'ipp-company-id': options.companyId,
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) {
      throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${await response.text()}`);
    }
    return response;
  };

  const catalog = (await (await api('/api/webhooks/publishers')).json()) as PublisherCatalog;
  const wanted = options.eventTypes?.length ? options.eventTypes : catalog.value.flatMap((p) => p.eventTypes.map((t) => t.type));
  const byPublisher = new Map<string, string[]>();
  for (const type of wanted) {
    const publisher = catalog.value.find((p) => p.eventTypes.some((t) => t.type === type));
    if (!publisher) throw new Error(`unknown event type ${type}`);
    byPublisher.set(publisher.name, [...(byPublisher.get(publisher.name) ?? []), type]);
  }

  const verifiers = new Map<string, Webhook>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const subscriptionId = String(request.headers['x-vwd-subscription-id'] ?? '');
      const verifier = verifiers.get(subscriptionId);
      let verified = false;
      let problem: string | undefined;
      let body: ListenedDelivery['body'];
      try {
        if (!verifier) throw new Error('unknown subscription');
        body = verifier.verify(rawBody, {
          'webhook-id': String(request.headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
        }) as ListenedDelivery['body'];
        verified = true;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
        try {
          body = JSON.parse(rawBody) as ListenedDelivery['body'];
        } catch {
          body = {};
        }
      }
      response.writeHead(verified ? 204 : 400).end();
      options.onDelivery({
        verified,
        problem,
        subscriptionId,
        webhookId: String(request.headers['webhook-id'] ?? ''),
        body,
        rawBody,
        headers: request.headers,
      });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/webhooks`;

  const subscriptions: WebhookListener['subscriptions'] = [];
  const stop = async () => {
    await Promise.allSettled(subscriptions.map((s) => api(`/api/webhooks/subscriptions/${s.id}`, { method: 'DELETE' })));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    for (const [publisher, eventTypes] of byPublisher) {
      const created = (await (
        await api('/api/webhooks/subscriptions', {
          method: 'POST',
          body: { publisher, eventTypes, url, description: `webhooks:listen on ${host}:${port}` },
        })
      ).json()) as { id: string; secret: string };
      verifiers.set(created.id, new Webhook(created.secret));
      subscriptions.push({ id: created.id, publisher, eventTypes, secret: created.secret });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, subscriptions, stop };
}
