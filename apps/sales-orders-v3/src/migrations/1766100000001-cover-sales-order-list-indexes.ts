import type { MigrationInterface, QueryRunner } from 'typeorm';
import { swapIndexConcurrentlyV1 } from '@erp/database';

/** One list index: its name, the plain definition it replaces and the covering one. */
interface CoveredIndex {
  name: string;
  plain: string;
  covering: string;
}

const INDEXES: CoveredIndex[] = [
  {
    name: 'sales_orders_company_created_idx',
    plain: '(company_id, created_at, internal_id)',
    covering: '(company_id, created_at, internal_id) INCLUDE (order_type, status, last_modified_at)',
  },
  {
    name: 'sales_orders_company_modified_idx',
    plain: '(company_id, last_modified_at, internal_id)',
    covering: '(company_id, last_modified_at, internal_id) INCLUDE (order_type, status, created_at, order_id)',
  },
  {
    name: 'sales_orders_company_order_id_idx',
    plain: '(company_id, order_id, order_type)',
    covering: '(company_id, order_id, order_type) INCLUDE (status, last_modified_at)',
  },
  {
    name: 'sales_orders_company_customer_idx',
    plain: '(company_id, customer_id, created_at, internal_id)',
    covering: '(company_id, customer_id, created_at, internal_id) INCLUDE (order_type, status, last_modified_at, order_id)',
  },
];

/**
 * The order list's indexes become covering ones: the seek of a bucketed page (1766100000000)
 * filters on type, status and last_modified_at while it walks the sort key's index, the
 * `modifiedSince` boundary count groups by every sort key, and a customer's orders are counted
 * and sorted by any orderBy, all without visiting the table.
 *
 * Outside a transaction, CONCURRENTLY: a plain DROP INDEX / CREATE INDEX would lock sales_orders
 * against reads and writes for four index builds over every company's orders. Each index is built
 * under a new name, then swapped in; a build that failed half-way leaves an invalid index under the
 * new name, which running the migration again drops first. To revert it, undo with
 * `transaction: 'none'`: TypeORM's undo ignores a migration's own `transaction = false`.
 */
export class CoverSalesOrderListIndexes1766100000001 implements MigrationInterface {
  name = 'CoverSalesOrderListIndexes1766100000001';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await swapIndexConcurrentlyV1(q, 'sales_orders', index.name, index.covering);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [...INDEXES].reverse()) await swapIndexConcurrentlyV1(q, 'sales_orders', index.name, index.plain);
  }
}
