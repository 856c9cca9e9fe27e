import { salesOrderLink } from '../events/sales-order/sales-order-event.data';
import type { EventData, EventType } from '../registry/event-registry';

const customer = {
  number: '10001',
  name: 'Acme AS',
  status: 'Active',
  currencyId: 'NOK',
  version: '42',
  lastModifiedDateTime: '2025-01-31T09:15:00.123',
  link: '/v1/customer/10001',
} as const;

const supplierInvoice = {
  referenceNumber: '000123',
  documentType: 'Invoice',
  status: 'Open',
  supplierNumber: 'S-1',
  amount: '1250.50',
  currencyId: 'NOK',
  version: '42',
  lastModifiedDateTime: '2026-01-31T09:15:00.123',
  link: '/v1/supplierInvoice/000123',
} as const;

const salesOrder = {
  type: 'SO',
  orderId: '000123',
  customerId: '10001',
  status: 'Open' as const,
  version: '42',
  link: salesOrderLink('SO', '000123'),
  currencyId: 'NOK',
  totals: { discountTotal: '0', freightTotal: '0', taxTotal: '1.88', orderTotal: '9.38', orderTotalInBaseCurrency: '9.38' },
  lines: [{ lineId: 1, inventoryId: 'BOLT-M8-40', quantity: '3', unitPrice: '2.5', discountPercent: '0', extendedPrice: '7.5', hasManualPrice: false, hasManualDiscount: false }],
};

/**
 * One valid `data` per event type, for this lib's tests: a new event type without a sample does
 * not compile, so the tests that run over every type cannot skip it.
 */
export const SAMPLE_EVENT_DATA: { readonly [T in EventType]: Readonly<EventData<T>> } = {
  CUSTOMER_CREATED: customer,
  CUSTOMER_UPDATED: customer,
  SUPPLIERINVOICE_CREATED: supplierInvoice,
  SUPPLIERINVOICE_UPDATED: supplierInvoice,
  ATTACHMENT_CREATED: {
    id: '2b1e6f8a-0c4d-4b7e-9f7a-1d2c3b4a5e6f',
    name: 'Faktura 2026 — «kopi».pdf',
    revision: 2,
    endpoint: 'supplierInvoice',
    objectId: '000123',
    contentType: 'application/pdf',
    size: 1024,
    sha256: 'a'.repeat(64),
    link: '/v1/attachment/2b1e6f8a-0c4d-4b7e-9f7a-1d2c3b4a5e6f?revision=2',
  },
  SALESORDER_CREATED: salesOrder,
  SALESORDER_UPDATED: salesOrder,
  SALESORDER_DELETED: salesOrder,
};
