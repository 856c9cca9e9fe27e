import { swapIndexConcurrentlyV1 } from '@erp/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The list's covering indexes of 1765200000001, and the same with the name included. */
const INDEXES = [
  {
    name: 'customers_company_order_idx',
    without: '(company_id, internal_id) INCLUDE (status, last_modified_at, created_at)',
    with: '(company_id, internal_id) INCLUDE (status, last_modified_at, created_at, name)',
  },
  {
    name: 'customers_company_modified_idx',
    without: '(company_id, last_modified_at, internal_id) INCLUDE (status, created_at)',
    with: '(company_id, last_modified_at, internal_id) INCLUDE (status, created_at, name)',
  },
  {
    name: 'customers_company_created_idx',
    without: '(company_id, created_at, internal_id) INCLUDE (status, last_modified_at)',
    with: '(company_id, created_at, internal_id) INCLUDE (status, last_modified_at, name)',
  },
];

/**
 * A counted name (1766200000000) rechecks names on the rows its statement reads: those of a range's
 * boundary time bucket (the timestamp indexes) and those the page seeks through from its start id
 * bucket (the order index). With the name in these covering indexes both are index-only scans, not
 * a visit to the table per row. At 1M customers, `name` in 7% of them with `lastModifiedDateTime >=`
 * the median: 8.4-10.0 ms a page became 6.1-6.4 ms (the seek, where few rows match, 3.9-4.7 ms to
 * 1.5-1.8). The price: the indexes grow by the names (70 to 97 MB each at 1M customers), and the
 * unfiltered list's deep page, which skips up to one id bucket of the order index, reads more of
 * it (1.8 to 2.05 ms; the full sync's page of 1000, 8.3 to 8.5 ms).
 *
 * CONCURRENTLY, outside a transaction, through `swapIndexConcurrentlyV1` (which resumes a run that
 * stopped half-way), as 1765200000001 did. To revert it, undo with `transaction: 'none'`.
 */
export class CoverNameInListIndexes1766200000001 implements MigrationInterface {
  name = 'CoverNameInListIndexes1766200000001';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await swapIndexConcurrentlyV1(q, 'customers', index.name, index.with);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [...INDEXES].reverse()) await swapIndexConcurrentlyV1(q, 'customers', index.name, index.without);
  }
}
