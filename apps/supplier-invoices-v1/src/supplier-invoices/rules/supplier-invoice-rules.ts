import { ValidationFailedError } from '@erp/errors';
import type { InvoiceLineDto, SupplierInvoiceFieldsDto } from '../dto/supplier-invoice-write.dto';
import type { InvoiceStatus } from '../supplier-invoice.entity';

/** A line with the number it is stored under. */
export type NumberedLine = InvoiceLineDto & { lineNumber: number };

/**
 * The status a write asks for. `hold` is the status Hold seen as a flag: `true` puts the invoice
 * on hold, `false` releases a held one (to Balanced) and leaves any other status as it is.
 */
export function requestedStatus(dto: SupplierInvoiceFieldsDto): { status?: InvoiceStatus; release?: true } {
  if (dto.status !== undefined) {
    if (dto.hold !== undefined && dto.hold !== (dto.status === 'Hold')) {
      throw ValidationFailedError.of('hold', `contradicts status ${dto.status}; send one of them, or both agreeing`);
    }
    return { status: dto.status };
  }
  if (dto.hold === true) return { status: 'Hold' };
  if (dto.hold === false) return { release: true };
  return {};
}

/** Line numbers as sent, or 1, 2, 3... in order; duplicates are a 400 naming the line. */
export function numberedLines(lines: InvoiceLineDto[]): NumberedLine[] {
  const seen = new Set<number>();
  return lines.map((line, index) => {
    const lineNumber = line.lineNumber ?? index + 1;
    if (seen.has(lineNumber)) {
      throw ValidationFailedError.of(`invoiceLines[${index}].lineNumber`, `${lineNumber} is used by another line`);
    }
    seen.add(lineNumber);
    return { ...line, lineNumber };
  });
}
