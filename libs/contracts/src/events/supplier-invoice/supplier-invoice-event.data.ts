import { IsIn, IsISO8601, IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** The document types and statuses of a v1 supplier invoice (the API's wire values). */
export const SUPPLIER_INVOICE_DOCUMENT_TYPES = ['Invoice', 'CreditAdj', 'DebitAdj', 'Prepayment'] as const;
export type SupplierInvoiceDocumentType = (typeof SUPPLIER_INVOICE_DOCUMENT_TYPES)[number];
export const SUPPLIER_INVOICE_STATUSES = ['Hold', 'Balanced', 'Open', 'Closed'] as const;
export type SupplierInvoiceStatus = (typeof SUPPLIER_INVOICE_STATUSES)[number];

/**
 * What supplier invoice events carry: enough for the attachments service to know the invoice
 * exists (it accepts uploads to it) and for a webhook receiver to decide whether to read it
 * (`link`). Values are exactly what `GET /v1/supplierInvoice/{referenceNumber}` shows at `version`.
 */
export class SupplierInvoiceEventData {
  @JSONSchema({ description: "The document number, the invoice's id in the API (never changes)." })
  @IsString()
  @IsNotEmpty()
  @MaxLength(15)
  referenceNumber: string;

  @IsIn(SUPPLIER_INVOICE_DOCUMENT_TYPES)
  documentType: SupplierInvoiceDocumentType;

  @IsIn(SUPPLIER_INVOICE_STATUSES)
  status: SupplierInvoiceStatus;

  @IsString()
  @IsNotEmpty()
  @MaxLength(30)
  supplierNumber: string;

  @JSONSchema({ description: 'The document total as an exact decimal string, e.g. `"1250.00"` (never a float).' })
  @Matches(/^-?\d{1,17}\.\d{2}$/, { message: 'amount must be a decimal string with two decimals' })
  amount: string;

  @JSONSchema({ description: 'ISO 4217 code, or null when the invoice has none.' })
  @ValidateIf((data: SupplierInvoiceEventData) => data.currencyId !== null)
  @Matches(/^[A-Z]{3}$/, { message: 'currencyId must be an ISO 4217 code or null' })
  currencyId: string | null;

  @JSONSchema({ description: "The row version after the change (the API's `timeStamp` and ETag value); grows with every change." })
  @Matches(/^[0-9]{1,19}$/, { message: 'version must be a decimal row version' })
  version: string;

  @JSONSchema({ description: 'As the API shows it: UTC to the millisecond, without zone, e.g. `2025-01-31T09:15:00.123`.' })
  @IsISO8601({ strict: true, strictSeparator: true })
  lastModifiedDateTime: string;

  @JSONSchema({ description: "The invoice's resource path, `/v1/supplierInvoice/<referenceNumber>`." })
  @Matches(/^\/v1\/supplierInvoice\/[^/]+$/, { message: 'link must be /v1/supplierInvoice/<referenceNumber>' })
  link: string;
}

/** The resource path a supplier invoice event links to. */
export function supplierInvoiceLink(referenceNumber: string): string {
  return `/v1/supplierInvoice/${encodeURIComponent(referenceNumber)}`;
}
