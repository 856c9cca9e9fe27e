import type { GatewayConfig } from '../config';
import { ReplicaSet } from './replica-set';
import type { RouteRule } from './learned-routes';

/** The services the gateway is configured with (one URL variable each, see config.ts). */
export type UpstreamName = 'customers' | 'supplierInvoices' | 'attachments' | 'salesOrders' | 'webhooks';

/** Their order: documents are merged, and equally specific routes matched, in it. */
export const UPSTREAM_ORDER: readonly UpstreamName[] = ['customers', 'supplierInvoices', 'attachments', 'salesOrders', 'webhooks'];

/** Each configured upstream's replica URLs (one in Kubernetes: the Service's), without a trailing slash. */
export type UpstreamUrls = Partial<Record<UpstreamName, string[]>>;
export type Upstreams = Partial<Record<UpstreamName, ReplicaSet>>;

export function upstreamUrlsFrom(config: GatewayConfig): UpstreamUrls {
  const urls: Record<UpstreamName, string[] | undefined> = {
    customers: config.CUSTOMERS_URL,
    supplierInvoices: config.SUPPLIER_INVOICES_URL,
    attachments: config.ATTACHMENTS_URL,
    salesOrders: config.SALES_ORDERS_URL,
    webhooks: config.WEBHOOKS_URL,
  };
  return Object.fromEntries(
    Object.entries(urls).flatMap(([name, list]) => (list && list.length > 0 ? [[name, list.map((url) => url.replace(/\/$/, ''))]] : [])),
  );
}

export function upstreamsFrom(urls: UpstreamUrls): Upstreams {
  return Object.fromEntries(Object.entries(urls).map(([name, list]) => [name, new ReplicaSet(list)]));
}

/** Where a request goes and what it must satisfy, from the owner's document (see RouteTable). */
export interface ResolvedRoute {
  rule: { upstream: UpstreamName; v1: boolean; scope?: string; template: RouteRule['template'] };
  /** The replica this request goes to. */
  baseUrl: string;
  replicas: ReplicaSet;
}

/** What the proxy asks for each request (GatewayRoutes). */
export interface RouteResolver {
  /** The route, undefined for a path no service declares; throws 503 while that cannot be told yet. */
  resolve(method: string, url: string): Promise<ResolvedRoute | undefined>;
}
