import { swapIndexConcurrentlyV1 } from '@erp/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One list index: its name, the definition it had before and the covering one. */
interface CoveredIndex {
  name: string;
  plain: string;
  covering: string;
}

const INDEXES: CoveredIndex[] = [
  { name: 'supplier_invoices_company_order_idx', plain: '(company_id, internal_id)', covering: '(company_id, internal_id) INCLUDE (status, document_type, last_modified_at)' },
  { name: 'supplier_invoices_company_status_idx', plain: '(company_id, status, internal_id)', covering: '(company_id, status, internal_id) INCLUDE (document_type, last_modified_at)' },
  { name: 'supplier_invoices_company_type_idx', plain: '(company_id, document_type, internal_id)', covering: '(company_id, document_type, internal_id) INCLUDE (status, last_modified_at)' },
  {
    name: 'supplier_invoices_company_supplier_idx',
    plain: '(company_id, supplier_number, internal_id)',
    covering: '(company_id, supplier_number, internal_id) INCLUDE (status, document_type, last_modified_at)',
  },
  { name: 'supplier_invoices_company_modified_idx', plain: '(company_id, last_modified_at)', covering: '(company_id, last_modified_at, internal_id) INCLUDE (status, document_type)' },
];

/**
 * The list's indexes become covering ones: the bucketed seek filters on status, document type and
 * last_modified_at, and the boundary and supplier counts group by id, without visiting the table
 * (see 1765300000000).
 *
 * Outside a transaction, CONCURRENTLY: a plain DROP INDEX / CREATE INDEX would lock
 * supplier_invoices against reads and writes for five index builds over every company's rows, an
 * outage at deploy time. Each index is built under a new name, then swapped in
 * (`swapIndexConcurrentlyV1`, which also resumes a run that stopped half-way).
 * To revert it, undo with `transaction: 'none'`: TypeORM's undo ignores a migration's own
 * `transaction = false`.
 */
export class CoverSupplierInvoiceListIndexes1765300000001 implements MigrationInterface {
  name = 'CoverSupplierInvoiceListIndexes1765300000001';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await swapIndexConcurrentlyV1(q, 'supplier_invoices', index.name, index.covering);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [...INDEXES].reverse()) await swapIndexConcurrentlyV1(q, 'supplier_invoices', index.name, index.plain);
  }
}
