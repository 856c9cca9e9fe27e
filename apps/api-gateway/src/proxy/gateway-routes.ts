import { Inject, Injectable } from '@nestjs/common';
import { ServiceUnavailableError } from '@erp/errors';
import type { GatewayConfig } from '../config';
import { UpstreamDocuments } from '../openapi/upstream-documents';
import { INTERNAL_PATH, routesFromDocument } from './learned-routes';
import { RouteTable } from './route-table';
import { type ResolvedRoute, type RouteResolver, UPSTREAM_ORDER, type Upstreams, upstreamsFrom, upstreamUrlsFrom } from './routes';

export const ROUTE_SETTINGS = {
  /** A path no route matched makes the gateway ask the services again, at most this often (a new release's routes). */
  refreshOnMissAfterMs: 5_000,
};

/**
 * The gateway's routes, learned from each service's public OpenAPI document (UpstreamDocuments
 * fetches them at start-up, every 30 s, and when a path matches nothing): a service that adds an
 * endpoint needs no change here. `/internal/...` is never routed. A path nothing matches is a 404,
 * except while a configured service's document has never been read (it was down since the gateway
 * started): then it may be that service's, and the answer is 503 with Retry-After.
 */
@Injectable()
export class GatewayRoutes implements RouteResolver {
  readonly upstreams: Upstreams;
  private readonly table: RouteTable;

  constructor(
    @Inject('GATEWAY_CONFIG') config: GatewayConfig,
    private readonly documents: UpstreamDocuments,
  ) {
    this.upstreams = upstreamsFrom(upstreamUrlsFrom(config));
    this.table = new RouteTable(UPSTREAM_ORDER.filter((name) => this.upstreams[name]));
    documents.onDocument((upstream, document) => this.table.learn(upstream, routesFromDocument(upstream, document)));
  }

  async resolve(method: string, url: string): Promise<ResolvedRoute | undefined> {
    const path = url.split('?')[0] ?? url;
    if (INTERNAL_PATH.test(path)) return undefined;
    let match = this.table.match(method, path);
    if (!match) {
      await this.documents.refresh(ROUTE_SETTINGS.refreshOnMissAfterMs);
      match = this.table.match(method, path);
    }
    if (!match) {
      const unknown = this.table.unknown();
      if (unknown.length > 0) throw new ServiceUnavailableError(`The routes of ${unknown.join(', ')} are not known yet; retry later`, 2);
      return undefined;
    }
    const replicas = this.upstreams[match.rule.upstream];
    if (!replicas) return undefined;
    return { rule: { upstream: match.rule.upstream, v1: match.v1, scope: match.scope, template: match.rule.template }, baseUrl: replicas.pick(), replicas };
  }

  /** Whether every configured service's routes are known (the gateway's readiness waits for it a while). */
  complete(): boolean {
    return this.table.unknown().length === 0;
  }
}
