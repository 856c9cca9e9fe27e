import { randomUUID } from 'node:crypto';
import type { Query } from './http/query';
import { Transport, type ApiResponse, type RequestOptions, type TokenSource } from './http/transport';
import { listV1, type V1ListOptions } from './paging/v1-list';
import { listV3, type V3ListOptions } from './paging/v3-list';
import { AttachmentsApi } from './resources/attachments';
import { CustomersApi } from './resources/customers';
import { InventoryApi } from './resources/inventory';
import { PricesApi } from './resources/prices';
import { SalesOrdersApi } from './resources/sales-orders';
import { SupplierInvoicesApi } from './resources/supplier-invoices';

export interface ErpClientOptions {
  /** The gateway, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** The bearer JWT, or a function asked before every request (for tokens that are refreshed). */
  token: TokenSource;
  /** Sent as `ipp-company-id`; may be left out when the token grants exactly one company. */
  companyId?: string;
  /** Sent as `ipp-application-type` (required on /v1). Default `erp-client`. */
  applicationType?: string;
  /** Default the platform's fetch; tests pass one that records requests. */
  fetch?: typeof fetch;
  /** Default `@erp/client/<version>`. */
  userAgent?: string;
  /** How long to wait for an answer's headers before an ErpNetworkError. Default 60 000 ms. */
  timeoutMs?: number;
  /**
   * Retries after a network failure, a cut connection, a 429 or a 503 (after `Retry-After` when
   * given, if at most `maxRetryDelayMs`): of reads, and of writes (POST, PATCH), which carry an
   * Idempotency-Key, the same on every try, so the API applies them once. PUT and DELETE are not
   * retried. A streamed body (an upload from a stream) is not sent twice. Default 2.
   */
  retries?: number;
  /**
   * The Idempotency-Key of each POST and PATCH; default a fresh UUID per write. A caller that keeps
   * its writes' keys (to send one again after a crash of its own) gives them here. A failed write's
   * error carries its key (`idempotencyKey`).
   */
  idempotencyKey?: () => string;
  /** Longest pause before a retry. Default 30 000 ms. */
  maxRetryDelayMs?: number;
}

export const CLIENT_VERSION = '0.1.0';

/**
 * The typed client of the ERP business API. Every request carries `Authorization: Bearer`,
 * `ipp-company-id` and `ipp-application-type`; failures are ErpApiError (ErpAuthError for 401/403)
 * or ErpNetworkError.
 */
export class ErpClient {
  readonly customers: CustomersApi;
  readonly supplierInvoices: SupplierInvoicesApi;
  readonly salesOrders: SalesOrdersApi;
  /** `/api/v3/Inventory`: the items order lines reference. */
  readonly inventory: InventoryApi;
  /** Price classes, price lists and exchange rates (extensions): what prices and totals sales orders. */
  readonly prices: PricesApi;
  readonly attachments: AttachmentsApi;
  /** Any v1 list, e.g. `client.v1.list('/v1/customer', { filters: { status: 'Active' } })`. */
  readonly v1: { list<T = Record<string, unknown>>(path: string, options?: V1ListOptions): AsyncGenerator<T, void, undefined> };
  /** Any v3 list (`{ value, totalCount, nextPage }`), following `nextPage`. */
  readonly v3: { list<T = Record<string, unknown>>(path: string, query?: Query, options?: V3ListOptions): AsyncGenerator<T, void, undefined> };
  private readonly transport: Transport;

  constructor(options: ErpClientOptions) {
    if (!options.baseUrl) throw new TypeError('ErpClient needs a baseUrl');
    if (!options.token) throw new TypeError('ErpClient needs a token');
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      token: options.token,
      companyId: options.companyId,
      applicationType: options.applicationType ?? 'erp-client',
      userAgent: options.userAgent ?? `@erp/client/${CLIENT_VERSION}`,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      timeoutMs: options.timeoutMs ?? 60_000,
      retries: options.retries ?? 2,
      idempotencyKey: options.idempotencyKey ?? (() => randomUUID()),
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    });
    const transport = this.transport;
    this.customers = new CustomersApi(transport);
    this.supplierInvoices = new SupplierInvoicesApi(transport);
    this.salesOrders = new SalesOrdersApi(transport);
    this.inventory = new InventoryApi(transport);
    this.prices = new PricesApi(transport);
    this.attachments = new AttachmentsApi(transport);
    this.v1 = { list: (path, listOptions) => listV1(transport, path, listOptions) };
    this.v3 = { list: (path, query, listOptions) => listV3(transport, path, query, listOptions) };
  }

  /** Any request; `data` is the parsed JSON (or text). Throws for 4xx/5xx and network failures. */
  request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.transport.request<T>(method, path, options);
  }
}
