import type { MigrationInterface, QueryRunner } from 'typeorm';
import { swapIndexConcurrentlyV1 } from '@erp/database';

/**
 * The trigram index of the `filter` count (1766200000000): company first (btree_gin), then the
 * search text. Built CONCURRENTLY outside a transaction, so writes to sales_orders (which the
 * triggers copy into sales_order_search_texts) go on meanwhile; a build that failed half-way is
 * dropped and built again when the migration runs again (swapIndexConcurrentlyV1). To revert it,
 * undo with `transaction: 'none'`: TypeORM's undo ignores a migration's own `transaction = false`.
 */
export class IndexSalesOrderSearchTexts1766200000001 implements MigrationInterface {
  name = 'IndexSalesOrderSearchTexts1766200000001';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await swapIndexConcurrentlyV1(q, 'sales_order_search_texts', 'sales_order_search_texts_trgm_idx', 'USING gin (company_id, search_text gin_trgm_ops)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS sales_order_search_texts_trgm_idx`);
  }
}
