import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exact per-bucket row counts for the common list (company, optionally status): one row per
 * (company, status, internal_id >> 14), maintained by statement-level triggers with transition
 * tables, so a COPY of a million rows costs one grouped upsert, a PUT that keeps the status costs
 * nothing, and counts commit or roll back with the rows. The list reads the total from here and
 * seeks to a page's bucket instead of counting and skipping up to a million index entries per
 * request (`@erp/customers-queries`, LIST_BUCKET_BITS = 14 must match the shift below).
 */
export class CreateCustomerListBuckets1763800000000 implements MigrationInterface {
  name = 'CreateCustomerListBuckets1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE customer_list_buckets (
        company_id varchar(64) NOT NULL,
        status varchar(20) NOT NULL,
        bucket bigint NOT NULL,
        row_count integer NOT NULL,
        PRIMARY KEY (company_id, status, bucket)
      )`);
    // Deltas are applied in key order so that concurrent writers lock bucket rows in one order.
    await q.query(`
      CREATE FUNCTION customer_list_buckets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO customer_list_buckets AS b (company_id, status, bucket, row_count)
          SELECT company_id, status, internal_id >> 14, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT (company_id, status, bucket) DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE customer_list_buckets AS b SET row_count = b.row_count - d.n
          FROM (SELECT company_id, status, internal_id >> 14 AS bucket, count(*) AS n FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) d
          WHERE b.company_id = d.company_id AND b.status = d.status AND b.bucket = d.bucket;
        ELSE
          INSERT INTO customer_list_buckets AS b (company_id, status, bucket, row_count)
          SELECT company_id, status, bucket, sum(delta) FROM (
            SELECT o.company_id, o.status, o.internal_id >> 14 AS bucket, -1 AS delta
            FROM old_rows o JOIN new_rows n USING (internal_id)
            WHERE (o.company_id, o.status) IS DISTINCT FROM (n.company_id, n.status)
            UNION ALL
            SELECT n.company_id, n.status, n.internal_id >> 14, 1
            FROM old_rows o JOIN new_rows n USING (internal_id)
            WHERE (o.company_id, o.status) IS DISTINCT FROM (n.company_id, n.status)
          ) changes GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
          ON CONFLICT (company_id, status, bucket) DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER customers_list_buckets_insert AFTER INSERT ON customers
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_list_buckets_apply()`);
    await q.query(`
      CREATE TRIGGER customers_list_buckets_update AFTER UPDATE ON customers
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_list_buckets_apply()`);
    await q.query(`
      CREATE TRIGGER customers_list_buckets_delete AFTER DELETE ON customers
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_list_buckets_apply()`);
    await q.query(`
      CREATE FUNCTION customer_list_buckets_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE customer_list_buckets;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER customers_list_buckets_truncate AFTER TRUNCATE ON customers
      FOR EACH STATEMENT EXECUTE FUNCTION customer_list_buckets_clear()`);
    await q.query(`
      INSERT INTO customer_list_buckets (company_id, status, bucket, row_count)
      SELECT company_id, status, internal_id >> 14, count(*) FROM customers GROUP BY 1, 2, 3`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER customers_list_buckets_truncate ON customers`);
    await q.query(`DROP TRIGGER customers_list_buckets_delete ON customers`);
    await q.query(`DROP TRIGGER customers_list_buckets_update ON customers`);
    await q.query(`DROP TRIGGER customers_list_buckets_insert ON customers`);
    await q.query(`DROP FUNCTION customer_list_buckets_clear()`);
    await q.query(`DROP FUNCTION customer_list_buckets_apply()`);
    await q.query(`DROP TABLE customer_list_buckets`);
  }
}
