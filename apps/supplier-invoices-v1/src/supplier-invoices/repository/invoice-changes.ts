import { decimalText } from '@erp/decimals';
import type { UpdateSupplierInvoiceDto } from '../dto/supplier-invoice-write.dto';
import type { InvoiceStatus } from '../supplier-invoice.entity';

/** What a PUT changes on the header: the fields sent, and the status the rules chose. */
export interface InvoiceChanges {
  fields: UpdateSupplierInvoiceDto;
  status?: InvoiceStatus;
  /** `hold: false`: a held invoice goes back to Balanced, any other status stays. */
  release?: true;
}

/** How each writable header field maps to its column (lines, status/hold and amounts are handled apart). */
export const WRITABLE_COLUMNS: Array<{ field: keyof UpdateSupplierInvoiceDto; column: string; cast?: string }> = [
  { field: 'documentType', column: 'document_type' },
  { field: 'supplierReference', column: 'supplier_reference' },
  { field: 'date', column: 'document_date', cast: 'date' },
  { field: 'dueDate', column: 'due_date', cast: 'date' },
  { field: 'currencyId', column: 'currency_id' },
  { field: 'description', column: 'description' },
];

/**
 * The SET assignments of a PUT and their named parameters. Names carry a `set_` prefix so none
 * equals a type cast in the statement (`:date::date` would bind both).
 */
export function invoiceAssignments(changes: InvoiceChanges): { sets: string[]; parameters: Record<string, unknown> } {
  const sets: string[] = [];
  const parameters: Record<string, unknown> = {};
  const set = (column: string, name: string, value: unknown, cast?: string) => {
    parameters[`set_${name}`] = value;
    sets.push(`${column} = :set_${name}${cast ? `::${cast}` : ''}`);
  };
  const { fields } = changes;
  for (const { field, column, cast } of WRITABLE_COLUMNS) {
    if (fields[field] !== undefined) set(column, field, fields[field], cast);
  }
  if (fields.supplier !== undefined) {
    set('supplier_number', 'supplierNumber', fields.supplier.number);
    set('supplier_name', 'supplierName', fields.supplier.name ?? null);
  }
  if (fields.vatAmount !== undefined) set('vat_amount', 'vatAmount', decimalText(fields.vatAmount), 'numeric');
  if (changes.status !== undefined) set('status', 'status', changes.status);
  if (changes.release) sets.push(`status = CASE WHEN status = 'Hold' THEN 'Balanced' ELSE status END`);
  return { sets, parameters };
}
