import { ATTACHMENTS_WORKLOAD } from './attachments.workload';
import { CUSTOMERS_WORKLOAD } from './customers.workload';
import { SALES_ORDERS_WORKLOAD } from './sales-orders.workload';
import { SUPPLIER_INVOICES_WORKLOAD } from './supplier-invoices.workload';
import { WEBHOOKS_WORKLOAD } from './webhooks.workload';
import type { ServiceWorkload } from './workload';

/** The workload of every service with a database, by catalog name. */
export const WORKLOADS: Record<string, ServiceWorkload> = Object.fromEntries(
  [CUSTOMERS_WORKLOAD, SUPPLIER_INVOICES_WORKLOAD, ATTACHMENTS_WORKLOAD, SALES_ORDERS_WORKLOAD, WEBHOOKS_WORKLOAD].map((w) => [w.service, w]),
);

export type { ServiceWorkload, TableFill, WriteContext, WriteKind, WriteStatement } from './workload';
