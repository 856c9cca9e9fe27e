import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';
import { decimalText } from '@erp/decimals';
import { writeTransaction } from '@erp/idempotency';
import type { CreateSupplierInvoiceDto } from '../dto/supplier-invoice-write.dto';
import type { NumberedLine } from '../rules/supplier-invoice-rules';
import type { SupplierInvoiceListQuery } from '../supplier-invoice-list.query';
import type { InvoiceStatus } from '../supplier-invoice.entity';
import { type InvoiceChanges, invoiceAssignments } from './invoice-changes';
import { SUPPLIER_INVOICE_JSON, supplierInvoiceByReferenceQuery, supplierInvoicePageQuery } from './supplier-invoices.queries';

/** An invoice as the API returns it: its JSON text and its version (the ETag value). */
export interface SupplierInvoiceRecord {
  referenceNumber: string;
  json: string;
  version: string;
}

// Stored to the millisecond: what the API shows is exactly what filters compare against.
const NOW_MS = `date_trunc('milliseconds', now())`;
const REFERENCE_DIGITS = 6;

/** Persistence of supplier invoices and their lines; every statement scoped by company (and behind the tenant wall). */
@Injectable()
export class SupplierInvoicesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    // A keyed request's first write commits with its stored answer (@erp/idempotency).
    return writeTransaction(this.db, work);
  }

  /**
   * One page's JSON rows and the filter's exact total, in one statement (see
   * `supplierInvoicePageQuery`); an empty page has no rows and needs no total (0).
   */
  async page(companyId: string, query: SupplierInvoiceListQuery): Promise<{ rows: string[]; total: number }> {
    const page = supplierInvoicePageQuery(companyId, query);
    const rows = await this.db.query<Array<{ json: string; total: number }>>(page.text, page.values);
    return { rows: rows.map((r) => r.json), total: rows[0]?.total ?? 0 };
  }

  async find(companyId: string, referenceNumber: string): Promise<SupplierInvoiceRecord | undefined> {
    const q = supplierInvoiceByReferenceQuery(companyId, referenceNumber);
    const rows = await this.db.query<Array<{ json: string; version: string }>>(q.text, q.values);
    return rows[0] && { referenceNumber, json: rows[0].json, version: rows[0].version };
  }

  /** The invoice with its amount as numeric text: what its events carry (see `supplierInvoiceEventData`). */
  async findWithAmount(companyId: string, referenceNumber: string): Promise<(SupplierInvoiceRecord & { amount: string }) | undefined> {
    const q = supplierInvoiceByReferenceQuery(companyId, referenceNumber);
    const rows = await this.db.query<Array<{ json: string; version: string; amount: string }>>(q.text, q.values);
    return rows[0] && { referenceNumber, ...rows[0] };
  }

  async exists(tx: EntityManager, companyId: string, referenceNumber: string): Promise<boolean> {
    const rows = await namedQuery(tx, `SELECT 1 FROM supplier_invoices WHERE company_id = :companyId AND reference_number = :referenceNumber`, {
      companyId,
      referenceNumber,
    });
    return rows.length > 0;
  }

  /** The company's next reference number (`000001`, ...), in the caller's transaction. */
  async nextReferenceNumber(tx: EntityManager, companyId: string): Promise<string> {
    const [row] = await namedQuery<{ last_value: string }>(
      tx,
      `INSERT INTO supplier_invoice_number_counters (company_id, last_value) VALUES (:companyId, 1)
       ON CONFLICT (company_id) DO UPDATE SET last_value = supplier_invoice_number_counters.last_value + 1
       RETURNING last_value::text`,
      { companyId },
    );
    return row.last_value.padStart(REFERENCE_DIGITS, '0');
  }

  /** Inserts the header unless the number is taken (then undefined, without aborting the transaction). */
  async insert(tx: EntityManager, companyId: string, referenceNumber: string, dto: CreateSupplierInvoiceDto, status: InvoiceStatus | undefined): Promise<string | undefined> {
    const rows = await namedQuery<{ internal_id: string }>(
      tx,
      `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, supplier_name,
         supplier_reference, document_date, due_date, status, currency_id, amount, vat_amount, balance, description,
         created_at, last_modified_at)
       VALUES (:companyId, :referenceNumber, :documentType, :supplierNumber, :supplierName, :supplierReference,
         COALESCE(:documentDate::date, (now() AT TIME ZONE 'UTC')::date), :dueDate::date, :status, :currencyId,
         0, :vatAmount::numeric, 0, :description, ${NOW_MS}, ${NOW_MS})
       ON CONFLICT (company_id, reference_number) DO NOTHING
       RETURNING internal_id::text AS internal_id`,
      {
        companyId,
        referenceNumber,
        documentType: dto.documentType ?? 'Invoice',
        supplierNumber: dto.supplier.number,
        supplierName: dto.supplier.name ?? null,
        supplierReference: dto.supplierReference ?? null,
        documentDate: dto.date ?? null,
        dueDate: dto.dueDate ?? null,
        status: status ?? 'Balanced',
        currencyId: dto.currencyId ?? null,
        vatAmount: decimalText(dto.vatAmount ?? 0),
        description: dto.description ?? null,
      },
    );
    return rows[0]?.internal_id;
  }

  /** The conditional header UPDATE behind PUT (version check and write in one statement); undefined when nothing matched. */
  async updateIfMatch(tx: EntityManager, companyId: string, referenceNumber: string, versions: string[] | null, changes: InvoiceChanges): Promise<string | undefined> {
    const { sets, parameters } = invoiceAssignments(changes);
    const rows = await namedQuery<{ internal_id: string }>(
      tx,
      `UPDATE supplier_invoices AS i SET last_modified_at = ${NOW_MS}, version = nextval('row_version_seq')${sets.map((s) => `, ${s}`).join('')}
       WHERE i.company_id = :companyId AND i.reference_number = :referenceNumber
         AND (:versions::bigint[] IS NULL OR i.version = ANY(:versions::bigint[]))
       RETURNING i.internal_id::text AS internal_id`,
      { ...parameters, companyId, referenceNumber, versions },
    );
    return rows[0]?.internal_id;
  }

  /** Replaces every line: the old ones go, the new ones come in one INSERT. */
  async replaceLines(tx: EntityManager, internalId: string, lines: NumberedLine[]): Promise<void> {
    await namedQuery(tx, `DELETE FROM supplier_invoice_lines WHERE invoice_id = :internalId`, { internalId });
    await this.insertLines(tx, internalId, lines);
  }

  /** One INSERT for all lines; each line's amount is quantity x unit price rounded to cents, in numeric. */
  async insertLines(tx: EntityManager, internalId: string, lines: NumberedLine[]): Promise<void> {
    if (lines.length === 0) return;
    await namedQuery(
      tx,
      `INSERT INTO supplier_invoice_lines (invoice_id, line_number, description, quantity, unit_price, amount)
       SELECT :internalId, l.line_number, l.description, l.quantity, l.unit_price, round(l.quantity * l.unit_price, 2)
       FROM unnest(:lineNumbers::int[], :descriptions::text[], :quantities::numeric[], :unitPrices::numeric[])
         AS l(line_number, description, quantity, unit_price)`,
      {
        internalId,
        lineNumbers: lines.map((l) => l.lineNumber),
        descriptions: lines.map((l) => l.description ?? null),
        quantities: lines.map((l) => decimalText(l.quantity)),
        unitPrices: lines.map((l) => decimalText(l.unitPrice)),
      },
    );
  }

  /**
   * amount = the lines' total + vatAmount; balance = amount, or 0 once Closed. Summed by Postgres
   * over numeric columns: exact, and always consistent with the stored lines.
   */
  async recomputeAmounts(tx: EntityManager, internalId: string, referenceNumber: string): Promise<SupplierInvoiceRecord & { amount: string }> {
    const [row] = await namedQuery<{ json: string; version: string; amount: string }>(
      tx,
      `WITH totals AS (
         SELECT COALESCE(sum(amount), 0) + (SELECT vat_amount FROM supplier_invoices WHERE internal_id = :internalId) AS amount
         FROM supplier_invoice_lines WHERE invoice_id = :internalId
       )
       UPDATE supplier_invoices AS i
       SET amount = totals.amount, balance = CASE WHEN i.status = 'Closed' THEN 0 ELSE totals.amount END
       FROM totals WHERE i.internal_id = :internalId
       RETURNING ${SUPPLIER_INVOICE_JSON} AS json, i.version::text AS version, i.amount::text AS amount`,
      { internalId },
    );
    return { referenceNumber, ...row };
  }
}
