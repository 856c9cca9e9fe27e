import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '@erp/database';
import { ApiError, NotFoundError, PreconditionFailedError, ValidationFailedError } from '@erp/errors';
import { type IfMatchCondition, versionsForUpdate } from '@erp/etag';
import { v1PageBodyFromJson } from '@erp/paging';
import { decimalText } from './decimal-value';
import type {
  CreateSupplierInvoiceDto,
  InvoiceLineDto,
  SupplierInvoiceFieldsDto,
  UpdateSupplierInvoiceDto,
} from './dto/supplier-invoice-write.dto';
import { SupplierInvoiceEvents, type WrittenInvoice } from '../events/supplier-invoice-events';
import { parseSupplierInvoiceListQuery } from './supplier-invoice-list.query';
import type { InvoiceStatus } from './supplier-invoice.entity';
import {
  SUPPLIER_INVOICE_JSON,
  supplierInvoiceByReferenceQuery,
  supplierInvoiceCountQuery,
  supplierInvoicePageQuery,
} from './supplier-invoices.queries';

export const SUPPLIER_INVOICE_SETTINGS = Symbol('SUPPLIER_INVOICE_SETTINGS');
export interface SupplierInvoiceSettings {
  maxPageSize: number;
}

/** An invoice as the API returns it: its JSON text and its version (the ETag value). */
export interface SupplierInvoiceRecord {
  referenceNumber: string;
  json: string;
  version: string;
}

/** How each writable header field maps to its column (lines, status/hold and amounts are handled apart). */
const WRITABLE_COLUMNS: Array<{ field: keyof SupplierInvoiceFieldsDto; column: string; cast?: string }> = [
  { field: 'documentType', column: 'document_type' },
  { field: 'supplierReference', column: 'supplier_reference' },
  { field: 'date', column: 'document_date', cast: 'date' },
  { field: 'dueDate', column: 'due_date', cast: 'date' },
  { field: 'currencyId', column: 'currency_id' },
  { field: 'description', column: 'description' },
];

// Stored to the millisecond: what the API shows is exactly what filters compare against.
const NOW_MS = `date_trunc('milliseconds', now())`;
const REFERENCE_DIGITS = 6;
const MAX_NUMBER_ATTEMPTS = 50;

/**
 * The status a write asks for. `hold` is the status Hold seen as a flag: `true` puts the invoice
 * on hold, `false` releases a held one (to Balanced) and leaves any other status as it is.
 */
function requestedStatus(dto: SupplierInvoiceFieldsDto): { status?: InvoiceStatus; release?: true } {
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
function numberedLines(lines: InvoiceLineDto[]): Array<InvoiceLineDto & { lineNumber: number }> {
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

@Injectable()
export class SupplierInvoicesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(SUPPLIER_INVOICE_SETTINGS) private readonly settings: SupplierInvoiceSettings,
    private readonly events: SupplierInvoiceEvents,
  ) {}

  /** One page as a JSON array text; the count and the page are read concurrently. */
  async list(companyId: string, rawQuery: Record<string, string | string[] | undefined>): Promise<string> {
    const query = parseSupplierInvoiceListQuery(rawQuery, this.settings.maxPageSize);
    const page = supplierInvoicePageQuery(companyId, query);
    const count = supplierInvoiceCountQuery(companyId, query);
    const [rows, counted] = await Promise.all([
      this.db.query<Array<{ json: string }>>(page.text, page.values),
      this.db.query<Array<{ total: number }>>(count.text, count.values),
    ]);
    return v1PageBodyFromJson(
      rows.map((r) => r.json),
      counted[0].total,
      this.settings.maxPageSize,
    );
  }

  async get(companyId: string, referenceNumber: string): Promise<SupplierInvoiceRecord> {
    const q = supplierInvoiceByReferenceQuery(companyId, referenceNumber);
    const rows = await this.db.query<Array<{ json: string; version: string }>>(q.text, q.values);
    if (rows.length === 0) throw new NotFoundError(`Supplier invoice ${referenceNumber}`);
    return { referenceNumber, json: rows[0].json, version: rows[0].version };
  }

  /** Header, lines, computed amounts and the SUPPLIERINVOICE_CREATED outbox row: one transaction. */
  async create(companyId: string, dto: CreateSupplierInvoiceDto): Promise<SupplierInvoiceRecord> {
    const { status } = requestedStatus(dto);
    const lines = numberedLines(dto.invoiceLines ?? []);
    return this.db.transaction(async (tx) => {
      const { internalId, referenceNumber } = await this.insertWithNumber(tx, companyId, dto, status);
      await this.insertLines(tx, internalId, lines);
      const written = await this.recomputeAmounts(tx, internalId, referenceNumber);
      await this.events.created(tx, companyId, written);
      return written;
    });
  }

  /**
   * PUT: changes only the fields present; `invoiceLines`, when present, replaces every line. The
   * version check and the header write are one UPDATE; amounts are then recomputed from the lines
   * in the same transaction, with the SUPPLIERINVOICE_UPDATED outbox row.
   */
  async update(
    companyId: string,
    referenceNumber: string,
    dto: UpdateSupplierInvoiceDto,
    ifMatch: IfMatchCondition | undefined,
  ): Promise<SupplierInvoiceRecord> {
    if (dto.referenceNumber !== undefined && dto.referenceNumber !== referenceNumber) {
      throw ValidationFailedError.of('referenceNumber', 'cannot be changed; it must equal the number in the path');
    }
    const { status, release } = requestedStatus(dto);
    const lines = dto.invoiceLines === undefined ? undefined : numberedLines(dto.invoiceLines);

    const values: unknown[] = [companyId, referenceNumber, versionsForUpdate(ifMatch)];
    const param = (value: unknown, cast?: string) => {
      values.push(value);
      return cast ? `$${values.length}::${cast}` : `$${values.length}`;
    };
    const sets = [`last_modified_at = ${NOW_MS}`, `version = nextval('row_version_seq')`];
    for (const { field, column, cast } of WRITABLE_COLUMNS) {
      const value = dto[field];
      if (value !== undefined) sets.push(`${column} = ${param(value, cast)}`);
    }
    if (dto.supplier !== undefined) {
      sets.push(`supplier_number = ${param(dto.supplier.number)}`, `supplier_name = ${param(dto.supplier.name ?? null)}`);
    }
    if (dto.vatAmount !== undefined) sets.push(`vat_amount = ${param(decimalText(dto.vatAmount), 'numeric')}`);
    if (status !== undefined) sets.push(`status = ${param(status)}`);
    if (release) sets.push(`status = CASE WHEN status = 'Hold' THEN 'Balanced' ELSE status END`);

    return this.db.transaction(async (tx) => {
      const rows = await queryRows<{ internal_id: string }>(
        tx,
        `UPDATE supplier_invoices AS i SET ${sets.join(', ')}
         WHERE i.company_id = $1 AND i.reference_number = $2 AND ($3::bigint[] IS NULL OR i.version = ANY($3::bigint[]))
         RETURNING i.internal_id::text AS internal_id`,
        values,
      );
      if (rows.length === 0) {
        const exists = await tx.query(`SELECT 1 FROM supplier_invoices WHERE company_id = $1 AND reference_number = $2`, [
          companyId,
          referenceNumber,
        ]);
        if (exists.length === 0) throw new NotFoundError(`Supplier invoice ${referenceNumber}`);
        throw new PreconditionFailedError();
      }
      const internalId = rows[0].internal_id;
      if (lines !== undefined) {
        await tx.query(`DELETE FROM supplier_invoice_lines WHERE invoice_id = $1`, [internalId]);
        await this.insertLines(tx, internalId, lines);
      }
      const written = await this.recomputeAmounts(tx, internalId, referenceNumber);
      await this.events.updated(tx, companyId, written);
      return written;
    });
  }

  /** The client's number (a duplicate is a 400), or the next free one of the company's sequence. */
  private async insertWithNumber(
    tx: EntityManager,
    companyId: string,
    dto: CreateSupplierInvoiceDto,
    status: InvoiceStatus | undefined,
  ): Promise<{ internalId: string; referenceNumber: string }> {
    if (dto.referenceNumber !== undefined) {
      const internalId = await this.insert(tx, companyId, dto.referenceNumber, dto, status);
      if (internalId === undefined) {
        throw new ApiError('DuplicateValue', `A supplier invoice with referenceNumber ${dto.referenceNumber} already exists`, {
          fieldProblems: [{ field: 'referenceNumber', message: 'is already in use', code: '0002-InvalidValue' }],
        });
      }
      return { internalId, referenceNumber: dto.referenceNumber };
    }
    // Numbers a client chose may collide with the sequence; skip those rather than fail.
    for (let attempt = 0; attempt < MAX_NUMBER_ATTEMPTS; attempt++) {
      const referenceNumber = await this.nextReferenceNumber(tx, companyId);
      const internalId = await this.insert(tx, companyId, referenceNumber, dto, status);
      if (internalId !== undefined) return { internalId, referenceNumber };
    }
    throw new Error('Could not assign a free supplier invoice reference number');
  }

  private async nextReferenceNumber(tx: EntityManager, companyId: string): Promise<string> {
    const rows = await tx.query<Array<{ last_value: string }>>(
      `INSERT INTO supplier_invoice_number_counters (company_id, last_value) VALUES ($1, 1)
       ON CONFLICT (company_id) DO UPDATE SET last_value = supplier_invoice_number_counters.last_value + 1
       RETURNING last_value::text`,
      [companyId],
    );
    return rows[0].last_value.padStart(REFERENCE_DIGITS, '0');
  }

  /** Inserts the header unless the number is taken (then undefined, without aborting the transaction). */
  private async insert(
    tx: EntityManager,
    companyId: string,
    referenceNumber: string,
    dto: CreateSupplierInvoiceDto,
    status: InvoiceStatus | undefined,
  ): Promise<string | undefined> {
    const rows = await tx.query<Array<{ internal_id: string }>>(
      `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, supplier_name,
         supplier_reference, document_date, due_date, status, currency_id, amount, vat_amount, balance, description,
         created_at, last_modified_at)
       VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::date, (now() AT TIME ZONE 'UTC')::date), $8::date, $9, $10,
         0, $11::numeric, 0, $12, ${NOW_MS}, ${NOW_MS})
       ON CONFLICT (company_id, reference_number) DO NOTHING
       RETURNING internal_id::text AS internal_id`,
      [
        companyId,
        referenceNumber,
        dto.documentType ?? 'Invoice',
        dto.supplier.number,
        dto.supplier.name ?? null,
        dto.supplierReference ?? null,
        dto.date ?? null,
        dto.dueDate ?? null,
        status ?? 'Balanced',
        dto.currencyId ?? null,
        decimalText(dto.vatAmount ?? 0),
        dto.description ?? null,
      ],
    );
    return rows[0]?.internal_id;
  }

  /** One INSERT for all lines; each line's amount is quantity x unit price rounded to cents, in numeric. */
  private async insertLines(
    tx: EntityManager,
    internalId: string,
    lines: Array<InvoiceLineDto & { lineNumber: number }>,
  ): Promise<void> {
    if (lines.length === 0) return;
    await tx.query(
      `INSERT INTO supplier_invoice_lines (invoice_id, line_number, description, quantity, unit_price, amount)
       SELECT $1, l.line_number, l.description, l.quantity, l.unit_price, round(l.quantity * l.unit_price, 2)
       FROM unnest($2::int[], $3::text[], $4::numeric[], $5::numeric[]) AS l(line_number, description, quantity, unit_price)`,
      [
        internalId,
        lines.map((l) => l.lineNumber),
        lines.map((l) => l.description ?? null),
        lines.map((l) => decimalText(l.quantity)),
        lines.map((l) => decimalText(l.unitPrice)),
      ],
    );
  }

  /**
   * amount = the lines' total + vatAmount; balance = amount, or 0 once Closed. Summed by Postgres
   * over numeric columns: exact, and always consistent with the stored lines.
   */
  private async recomputeAmounts(
    tx: EntityManager,
    internalId: string,
    referenceNumber: string,
  ): Promise<SupplierInvoiceRecord & WrittenInvoice> {
    const rows = await queryRows<{ json: string; version: string; amount: string }>(
      tx,
      `WITH totals AS (
         SELECT COALESCE(sum(amount), 0) + (SELECT vat_amount FROM supplier_invoices WHERE internal_id = $1) AS amount
         FROM supplier_invoice_lines WHERE invoice_id = $1
       )
       UPDATE supplier_invoices AS i
       SET amount = totals.amount, balance = CASE WHEN i.status = 'Closed' THEN 0 ELSE totals.amount END
       FROM totals WHERE i.internal_id = $1
       RETURNING ${SUPPLIER_INVOICE_JSON} AS json, i.version::text AS version, i.amount::text AS amount`,
      [internalId],
    );
    return { referenceNumber, ...rows[0] };
  }
}
