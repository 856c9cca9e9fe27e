import { SCOPES } from '@erp/auth';
import type { GatewayConfig } from '../config';

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
  { upstream: 'webhooks', pattern: /^\/api\/webhooks(?:[/?]|$)/, v1: false, scope: SCOPES.manageWebhooks },
];

export type UpstreamUrls = Partial<Record<UpstreamName, string>>;

export function upstreamUrlsFrom(config: GatewayConfig): UpstreamUrls {
  return {
    customers: config.CUSTOMERS_URL,
    supplierInvoices: config.SUPPLIER_INVOICES_URL,
    attachments: config.ATTACHMENTS_URL,
    salesOrders: config.SALES_ORDERS_URL,
    webhooks: config.WEBHOOKS_URL,
  };
}

export interface ResolvedRoute {
  rule: RouteRule;
  baseUrl: string;
}

/** The route for a request URL, or undefined when no configured service owns the path. */
export function resolveRoute(url: string, upstreams: UpstreamUrls): ResolvedRoute | undefined {
  for (const rule of ROUTE_RULES) {
    if (!rule.pattern.test(url)) continue;
    const baseUrl = upstreams[rule.upstream];
    return baseUrl ? { rule, baseUrl: baseUrl.replace(/\/$/, '') } : undefined;
  }
  return undefined;
}
