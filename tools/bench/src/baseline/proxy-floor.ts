import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { type Dispatcher, Pool } from 'undici';

export interface ProxyFloorOptions {
  /** The service the floor forwards every request to, e.g. customers-v1's URL. */
  upstreamUrl: string;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) are not forwarded, as any proxy drops them.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

function forwarded(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/**
 * The floor for the gateway's hop: node:http in front, undici's Pool behind (keep-alive, as the
 * gateway's), the request's method, path and headers forwarded and the answer streamed back, and
 * nothing else: no routing, no authentication, no rate limit, no logging, no metrics. Its CPU per
 * request is what moving a request and its answer through a Node process costs, against which the
 * gateway's own is read (BENCHMARKS.md, customers-list).
 */
export function createProxyFloor(options: ProxyFloorOptions): { server: Server; close(): Promise<void> } {
  const upstream = new Pool(options.upstreamUrl, { connections: 128, pipelining: 1 });
  const server = createServer((request, response) => {
    if (request.url === '/health/ready') {
      response.writeHead(200).end('ok');
      return;
    }
    upstream
      .request({ method: (request.method ?? 'GET') as Dispatcher.HttpMethod, path: request.url ?? '/', headers: forwarded(request.headers), body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request })
      .then(async ({ statusCode, headers, body }) => {
        response.writeHead(statusCode, forwarded(headers as IncomingHttpHeaders));
        await pipeline(body, response);
      })
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
  });
  return {
    server,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}
