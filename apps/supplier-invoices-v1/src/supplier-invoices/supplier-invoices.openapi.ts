import { DECIMAL_INPUT, ref, type Schemas, v1Field } from '@erp/openapi';
import { DOCUMENT_TYPES, INVOICE_STATUSES } from './supplier-invoice.entity';

const nullableStr = { type: ['string', 'null'] };
const date = { type: 'string', format: 'date', examples: ['2026-01-31'] };
const timestamp = { type: 'string', description: 'UTC, ISO 8601 without zone', examples: ['2026-01-31T12:00:00.000'] };
const amount = { type: 'number', description: 'Exact decimal computed by the server' };

const WRITE_PROPERTIES = {
  documentType: v1Field({ type: 'string', enum: [...DOCUMENT_TYPES] }),
  referenceNumber: v1Field({ type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,14}$', description: 'Assigned from the company sequence when omitted' }),
  supplier: v1Field(ref('SupplierInvoiceSupplierInput')),
  supplierReference: v1Field({ type: ['string', 'null'], maxLength: 40 }),
  date: v1Field(date),
  dueDate: v1Field({ type: ['string', 'null'], format: 'date' }),
  status: v1Field({ type: 'string', enum: [...INVOICE_STATUSES] }),
  hold: v1Field({ type: 'boolean' }),
  currencyId: v1Field({ type: ['string', 'null'], pattern: '^[A-Z]{3}$' }),
  vatAmount: v1Field(DECIMAL_INPUT),
  description: v1Field({ type: ['string', 'null'], maxLength: 255 }),
  invoiceLines: v1Field({ type: 'array', maxItems: 1000, items: ref('SupplierInvoiceLineInput'), description: 'Replaces all lines' }),
};

/** The record as `SUPPLIER_INVOICE_JSON` (repository/supplier-invoices.queries.ts) builds it. */
export const SUPPLIER_INVOICE_SCHEMAS: Schemas = {
  SupplierInvoiceSupplier: { type: 'object', required: ['number'], properties: { number: { type: 'string' }, name: nullableStr } },
  SupplierInvoiceLine: {
    type: 'object',
    required: ['lineNumber', 'quantity', 'unitPrice', 'amount'],
    properties: {
      lineNumber: { type: 'integer' },
      description: nullableStr,
      quantity: { type: 'number' },
      unitPrice: { type: 'number' },
      amount: { ...amount, description: 'round(quantity x unitPrice, 2)' },
    },
  },
  SupplierInvoice: {
    type: 'object',
    required: ['documentType', 'referenceNumber', 'supplier', 'status', 'hold', 'amount', 'vatAmount', 'balance', 'invoiceLines', 'attachments', 'timeStamp'],
    properties: {
      documentType: { type: 'string', enum: [...DOCUMENT_TYPES] },
      referenceNumber: { type: 'string', description: 'The document number' },
      supplier: ref('SupplierInvoiceSupplier'),
      supplierReference: nullableStr,
      date: { ...date, type: ['string', 'null'] },
      dueDate: { ...date, type: ['string', 'null'] },
      status: { type: 'string', enum: [...INVOICE_STATUSES] },
      hold: { type: 'boolean' },
      currencyId: nullableStr,
      amount: { ...amount, description: 'Lines plus vatAmount' },
      vatAmount: amount,
      balance: { ...amount, description: 'amount (0 once Closed)' },
      description: nullableStr,
      invoiceLines: { type: 'array', items: ref('SupplierInvoiceLine') },
      attachments: { type: 'array', items: ref('AttachmentRef') },
      createdDateTime: timestamp,
      lastModifiedDateTime: timestamp,
      timeStamp: { type: 'string', description: 'The version (ETag value)' },
    },
  },
  SupplierInvoiceListItem: {
    allOf: [ref('SupplierInvoice'), { type: 'object', required: ['metadata'], properties: { metadata: ref('V1ListMetadata') } }],
  },
  SupplierInvoiceSupplierInput: { type: 'object', required: ['number'], properties: { number: { type: 'string' }, name: { type: ['string', 'null'], maxLength: 255 } } },
  SupplierInvoiceLineInput: {
    type: 'object',
    required: ['quantity', 'unitPrice'],
    properties: {
      lineNumber: { type: 'integer', minimum: 1, maximum: 9999 },
      description: { type: ['string', 'null'], maxLength: 255 },
      quantity: DECIMAL_INPUT,
      unitPrice: DECIMAL_INPUT,
    },
  },
  SupplierInvoiceCreate: { type: 'object', required: ['supplier'], properties: WRITE_PROPERTIES },
  SupplierInvoiceUpdate: { type: 'object', description: 'Only the fields sent change; `invoiceLines` replaces all lines.', properties: WRITE_PROPERTIES },
};
