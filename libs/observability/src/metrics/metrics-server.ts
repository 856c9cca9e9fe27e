import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_PATH } from './http-metrics';
import { collectProcessMetrics, metricsRegistry } from './metrics-registry';

/** A listener of its own for `GET /metrics`, apart from the service's public port. */
export interface MetricsServer {
  /** `http://host:port` it listens on (port 0 picks a free one). */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the registry on `port` and nothing else (`/metrics`; any other path is a 404). Services
 * start it when METRICS_PORT is set, so the scrape port is one a NetworkPolicy can open to the
 * monitoring namespace alone while the public Service (the gateway's ingress) exposes only the
 * API port. A plain node:http server: one route, no body, no framework to configure.
 */
export async function startMetricsServer(port: number, host: string): Promise<MetricsServer> {
  collectProcessMetrics();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(error)}\n`),
    );
  });
  // A scraper keeps its connection open between scrapes; those idle sockets must not hold the close.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
