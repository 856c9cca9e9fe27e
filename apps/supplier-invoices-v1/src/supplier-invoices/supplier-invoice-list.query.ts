import { refuseUnknownParameters, ValidationFailedError } from '@erp/errors';
import { parseV1DateTimeFilter, parseV1Paging, type V1DateTimeFilter, type V1PageRequest } from '@erp/paging';
import { DOCUMENT_TYPES, INVOICE_STATUSES, type DocumentType, type InvoiceStatus } from './supplier-invoice.entity';

type Query = Record<string, string | string[] | undefined>;

export interface SupplierInvoiceListQuery {
  page: V1PageRequest;
  status?: InvoiceStatus;
  supplier?: string;
  documentType?: DocumentType;
  lastModified?: V1DateTimeFilter;
}

const KNOWN_PARAMETERS = new Set([
  'pageNumber',
  'pageSize',
  'status',
  'supplier',
  'documentType',
  'lastModifiedDateTime',
  'lastModifiedDateTimeCondition',
]);

function single(query: Query, name: string, maxLength: number): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw ValidationFailedError.of(name, 'must be given once');
  if (value.length > maxLength) throw ValidationFailedError.of(name, `must be at most ${maxLength} characters`);
  return value;
}

function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[]): T | undefined {
  const value = single(query, name, 20);
  if (value !== undefined && !(allowed as readonly string[]).includes(value)) {
    throw ValidationFailedError.of(name, `must be one of ${allowed.join(', ')}`);
  }
  return value as T | undefined;
}

/**
 * Reads the supplier invoice list query. Unknown parameters are refused with a 400 naming them
 * (`refuseUnknownParameters`): a misspelt filter must not silently return every invoice.
 * `supplier` is the supplier's number.
 */
export function parseSupplierInvoiceListQuery(query: Query, maxPageSize: number): SupplierInvoiceListQuery {
  refuseUnknownParameters(query, KNOWN_PARAMETERS);
  return {
    page: parseV1Paging(query, maxPageSize),
    status: oneOf(query, 'status', INVOICE_STATUSES),
    supplier: single(query, 'supplier', 30),
    documentType: oneOf(query, 'documentType', DOCUMENT_TYPES),
    lastModified: parseV1DateTimeFilter(query, 'lastModifiedDateTime'),
  };
}
