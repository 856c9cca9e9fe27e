import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
  ValidateBy,
} from 'class-validator';
import { IsExactDecimal } from '@erp/decimals';
import { DOCUMENT_TYPES, INVOICE_STATUSES, type DocumentType, type InvoiceStatus } from '../supplier-invoice.entity';

/**
 * Optional and clearable: absent means "leave as is", null means "clear it". class-validator's
 * IsOptional would let null through silently for required fields too, so those use ValidateIf.
 */
const presentOrNull = (field: string) =>
  ValidateIf((o: Record<string, unknown>) => o[field] !== undefined && o[field] !== null);
/** Optional but never null: absent means "leave as is" (or the default on create). */
const present = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);

export const REFERENCE_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,14}$/;
const SUPPLIER_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$/;
export const MAX_INVOICE_LINES = 1000;

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
function IsCalendarDate(): PropertyDecorator {
  return ValidateBy({
    name: 'isCalendarDate',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
        const date = new Date(`${value}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
      },
      defaultMessage: (args?: ValidationArguments) => `${args?.property} must be a date in the form YYYY-MM-DD`,
    },
  });
}

export class SupplierDto {
  @IsString()
  @Matches(SUPPLIER_NUMBER, { message: 'supplier.number must be 1 to 30 letters, digits, ".", "_" or "-"' })
  number: string;

  @presentOrNull('name') @IsString() @MaxLength(255) name?: string | null;
}

export class InvoiceLineDto {
  /** Position of the line; assigned 1, 2, 3... in the order sent when omitted. */
  @present('lineNumber') @IsInt() @Min(1) @Max(9999) lineNumber?: number;

  @presentOrNull('description') @IsString() @MaxLength(255) description?: string | null;

  @IsExactDecimal({ maxIntegerDigits: 12, maxScale: 6 })
  quantity: number | string;

  @IsExactDecimal({ maxIntegerDigits: 13, maxScale: 6 })
  unitPrice: number | string;
}

/** Fields shared by create and update, all optional on update. */
export class SupplierInvoiceFieldsDto {
  @present('documentType')
  @IsIn(DOCUMENT_TYPES, { message: `documentType must be one of ${DOCUMENT_TYPES.join(', ')}` })
  documentType?: DocumentType;

  @presentOrNull('supplierReference') @IsString() @MaxLength(40) supplierReference?: string | null;

  @present('date') @IsCalendarDate() date?: string;

  @presentOrNull('dueDate') @IsCalendarDate() dueDate?: string | null;

  @present('status')
  @IsIn(INVOICE_STATUSES, { message: `status must be one of ${INVOICE_STATUSES.join(', ')}` })
  status?: InvoiceStatus;

  /** `true` is status Hold; `false` releases a held invoice to Balanced. Must agree with `status` when both are sent. */
  @present('hold') @IsBoolean() hold?: boolean;

  @presentOrNull('currencyId')
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currencyId must be an ISO 4217 code such as NOK or EUR' })
  currencyId?: string | null;

  /** VAT of the document, stated by the supplier; the amount is the lines' total plus this. */
  @present('vatAmount') @IsExactDecimal({ maxIntegerDigits: 17, maxScale: 2 }) vatAmount?: number | string;

  @presentOrNull('description') @IsString() @MaxLength(255) description?: string | null;

  /** On update: replaces every line when present. */
  @present('invoiceLines')
  @IsArray()
  @ArrayMaxSize(MAX_INVOICE_LINES)
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineDto)
  invoiceLines?: InvoiceLineDto[];
}

export class CreateSupplierInvoiceDto extends SupplierInvoiceFieldsDto {
  /** Assigned from the company's sequence when omitted. */
  @present('referenceNumber')
  @IsString()
  @Matches(REFERENCE_NUMBER, { message: 'referenceNumber must be 1 to 15 letters, digits, ".", "_" or "-"' })
  referenceNumber?: string;

  @IsObject()
  @IsNotEmpty()
  @ValidateNested()
  @Type(() => SupplierDto)
  supplier: SupplierDto;
}

export class UpdateSupplierInvoiceDto extends SupplierInvoiceFieldsDto {
  /** Accepted only when equal to the number in the path: a document number never changes. */
  @present('referenceNumber')
  @IsString()
  @Matches(REFERENCE_NUMBER, { message: 'referenceNumber must be 1 to 15 letters, digits, ".", "_" or "-"' })
  referenceNumber?: string;

  @present('supplier')
  @IsObject()
  @ValidateNested()
  @Type(() => SupplierDto)
  supplier?: SupplierDto;
}
