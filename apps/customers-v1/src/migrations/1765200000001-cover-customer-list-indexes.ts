import { swapIndexConcurrentlyV1 } from '@erp/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One list index: its name, the plain definition it replaces and the covering one. */
interface CoveredIndex {
  name: string;
  plain: string;
  covering: string;
}

const INDEXES: CoveredIndex[] = [
  { name: 'customers_company_order_idx', plain: '(company_id, internal_id)', covering: '(company_id, internal_id) INCLUDE (status, last_modified_at, created_at)' },
  { name: 'customers_company_status_idx', plain: '(company_id, status, internal_id)', covering: '(company_id, status, internal_id) INCLUDE (last_modified_at, created_at)' },
  { name: 'customers_company_modified_idx', plain: '(company_id, last_modified_at)', covering: '(company_id, last_modified_at, internal_id) INCLUDE (status, created_at)' },
  { name: 'customers_company_created_idx', plain: '(company_id, created_at)', covering: '(company_id, created_at, internal_id) INCLUDE (status, last_modified_at)' },
];

/**
 * The list's indexes become covering ones (the bucketed seek filters on the timestamps, and the
 * boundary counts group by id and status, without visiting the table; see 1765200000000).
 *
 * Outside a transaction, CONCURRENTLY: a plain DROP INDEX / CREATE INDEX would lock customers
 * against reads and writes for four index builds over every company's rows, an outage at deploy
 * time. Each index is built under a new name, then swapped in (`swapIndexConcurrentlyV1`, which also
 * resumes a run that stopped half-way). To revert it,
 * undo with `transaction: 'none'`: TypeORM's undo ignores a migration's own `transaction = false`.
 */
export class CoverCustomerListIndexes1765200000001 implements MigrationInterface {
  name = 'CoverCustomerListIndexes1765200000001';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await swapIndexConcurrentlyV1(q, 'customers', index.name, index.covering);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [...INDEXES].reverse()) await swapIndexConcurrentlyV1(q, 'customers', index.name, index.plain);
  }
}
