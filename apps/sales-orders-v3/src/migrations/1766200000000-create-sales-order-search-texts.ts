import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createCountTriggersV1, dropCountTriggersV1 } from '@erp/database';

/**
 * What `filter` is matched against, per order. Must equal `SEARCH_TEXT` of @erp/sales-orders-queries
 * and the expression of the trigram index on sales_orders (migration 1764100000000), over `row`.
 */
const searchText = (row: string) => `lower(${row}.order_id || chr(1) || coalesce(${row}.customer_order, '') || chr(1) || ${row}.customer_name)`;
const COLUMNS = 'internal_id, company_id, order_type, status, search_text';
const ROW = `o.internal_id, o.company_id, o.order_type, o.status, ${searchText('o')}`;

/**
 * The exact count of a `filter` (`GET /api/v3/SalesOrders?filter=`), from a narrow copy of what it
 * matches: a substring is found by the trigram index, whose every candidate must then be read and
 * checked. On sales_orders that is a row of ~670 bytes (addresses, payment, attachments as jsonb)
 * and the search text computed again: a filter matching 9% of a company's 200k orders visited
 * 7,500 heap pages and took 16 ms, most of the list request. Here a row is ~100 bytes with the
 * text already computed: 2,700 pages, 10 ms. The page itself still seeks the sort key's index of
 * sales_orders and checks the filter there (its own trigram index stays for filters that match
 * few orders).
 *
 * One row per order: its key, type and status (the other filters a `filter` count can be combined
 * with here; customerId and modifiedSince go to sales_orders) and the search text. Statement
 * triggers with transition tables keep it, in the same transaction as the orders, so a count in
 * the request's snapshot is exact: inserts add rows, deletes remove them, an update rewrites only
 * the rows whose type, status or text changed (every write moves last_modified_at, which is not
 * kept here) and a truncate empties it. Rows are written in key order, as the list cells.
 *
 * As the list cells (1766100000000), the first CREATE TRIGGER locks sales_orders against writes
 * until this migration commits: no order is both missed by the backfill and written without its
 * trigger. Reads go on. The trigram index is built CONCURRENTLY in the next migration.
 */
export class CreateSalesOrderSearchTexts1766200000000 implements MigrationInterface {
  name = 'CreateSalesOrderSearchTexts1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sales_order_search_texts (
        internal_id bigint NOT NULL,
        company_id varchar(64) NOT NULL,
        order_type varchar(2) NOT NULL,
        status varchar(20) NOT NULL,
        search_text text NOT NULL,
        PRIMARY KEY (company_id, internal_id)
      )`);
    await q.query(`
      CREATE FUNCTION sales_order_search_texts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO sales_order_search_texts (${COLUMNS})
          SELECT ${ROW} FROM new_rows o ORDER BY o.company_id, o.internal_id;
        ELSIF TG_OP = 'DELETE' THEN
          DELETE FROM sales_order_search_texts s USING old_rows o WHERE s.company_id = o.company_id AND s.internal_id = o.internal_id;
        ELSE
          -- An order whose key changed (company_id; internal_id is GENERATED ALWAYS) leaves its old row.
          DELETE FROM sales_order_search_texts s USING old_rows o
          WHERE s.company_id = o.company_id AND s.internal_id = o.internal_id
            AND NOT EXISTS (SELECT FROM new_rows n WHERE n.company_id = o.company_id AND n.internal_id = o.internal_id);
          -- Only the orders whose type, status or text changed: an upsert that changes nothing would
          -- still lock (and so write) the row it conflicts with.
          INSERT INTO sales_order_search_texts AS s (${COLUMNS})
          SELECT ${ROW} FROM new_rows o
          WHERE NOT EXISTS (
            SELECT FROM old_rows p
            WHERE p.company_id = o.company_id AND p.internal_id = o.internal_id AND p.order_type = o.order_type AND p.status = o.status
              AND ${searchText('p')} = ${searchText('o')})
          ORDER BY o.company_id, o.internal_id
          ON CONFLICT (company_id, internal_id) DO UPDATE
            SET order_type = EXCLUDED.order_type, status = EXCLUDED.status, search_text = EXCLUDED.search_text;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION sales_order_search_texts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE sales_order_search_texts;
        RETURN NULL;
      END $$`);
    await createCountTriggersV1(q, 'sales_orders', 'sales_order_search_texts', 'sales_order_search_texts_apply', 'sales_order_search_texts_clear');
    await q.query(`INSERT INTO sales_order_search_texts (${COLUMNS}) SELECT ${ROW} FROM sales_orders o ORDER BY o.company_id, o.internal_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropCountTriggersV1(q, 'sales_orders', 'sales_order_search_texts');
    await q.query(`DROP FUNCTION sales_order_search_texts_clear()`);
    await q.query(`DROP FUNCTION sales_order_search_texts_apply()`);
    await q.query(`DROP TABLE sales_order_search_texts`);
  }
}
