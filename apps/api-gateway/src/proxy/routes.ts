import { SCOPES } from '@erp/auth';
import type { GatewayConfig } from '../config';
import { ReplicaSet } from './replica-set';

export type UpstreamName = 'customers' | 'supplierInvoices' | 'attachments' | 'salesOrders' | 'webhooks';

/** A path family and the service that owns it. Order matters: the first match wins. */
export interface RouteRule {
  upstream: UpstreamName;
  pattern: RegExp;
  /** The v1 family needs `ipp-application-type`. */
  v1: boolean;
  /** Overrides the scope derived from the method (reads: erp:read, writes: erp:write). */
  scope?: string;
}

// Attachment uploads live under their owner's path (/v1/customer/{id}/Attachment) but belong to
// the attachments service, so they are matched before the owners' prefixes.
export const ROUTE_RULES: RouteRule[] = [
  { upstream: 'attachments', pattern: /^\/v1\/[^/?]+\/[^/?]+\/Attachment(?:[/?]|$)/, v1: true },
  { upstream: 'attachments', pattern: /^\/v1\/attachment(?:[/?]|$)/, v1: true },
  { upstream: 'customers', pattern: /^\/v1\/customer(?:[/?]|$)/, v1: true },
  { upstream: 'supplierInvoices', pattern: /^\/v1\/supplierInvoice(?:[/?]|$)/, v1: true },
  { upstream: 'salesOrders', pattern: /^\/api\/v3\/SalesOrders(?:[/?]|$)/, v1: false },
  // The v3 view of the customers is served by their owner; the inventory catalogue by sales orders (its order lines reference the items).
  { upstream: 'customers', pattern: /^\/api\/v3\/Customers(?:[/?]|$)/, v1: false },
  { upstream: 'salesOrders', pattern: /^\/api\/v3\/Inventory(?:[/?]|$)/, v1: false },
  // The price rules and exchange rates (extensions) price and total order lines in the orders' own transactions: sales orders owns them.
  { upstream: 'salesOrders', pattern: /^\/api\/v3\/(?:PriceClasses|PriceLists|CurrencyRates)(?:[/?]|$)/, v1: false },
  { upstream: 'webhooks', pattern: /^\/api\/webhooks(?:[/?]|$)/, v1: false, scope: SCOPES.manageWebhooks },
];

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

export interface ResolvedRoute {
  rule: RouteRule;
  /** The replica this request goes to. */
  baseUrl: string;
  replicas: ReplicaSet;
}

/** The route for a request URL, or undefined when no configured service owns the path. */
export function resolveRoute(url: string, upstreams: Upstreams): ResolvedRoute | undefined {
  for (const rule of ROUTE_RULES) {
    if (!rule.pattern.test(url)) continue;
    const replicas = upstreams[rule.upstream];
    return replicas ? { rule, baseUrl: replicas.pick(), replicas } : undefined;
  }
  return undefined;
}
