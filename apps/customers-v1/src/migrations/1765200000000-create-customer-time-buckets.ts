import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exact row counts for the timestamp filters of the list (`lastModifiedDateTime`,
 * `createdDateTime`, alone, together and with `status`): one row per (company, status,
 * internal_id >> 14, last_modified_at bucket, created_at bucket), a time bucket being 2^21 seconds
 * (about 24 days) of epoch time. Like customer_list_buckets (1763800000000) they are kept exact by
 * statement triggers with transition tables, so a COPY costs one grouped upsert and counts commit
 * or roll back with the rows. A filtered list sums the cells wholly inside the range, counts only
 * the boundary time bucket from the covering indexes below, and seeks to the id bucket where the
 * page starts (`@erp/customers-queries`: ID and TIME bits there must match the shifts here).
 *
 * The covering indexes the seek and the boundary counts use come in the next migration
 * (1765200000001), built CONCURRENTLY outside a transaction. Here, the first CREATE TRIGGER takes
 * a SHARE ROW EXCLUSIVE lock on customers until this migration commits: writes wait through the
 * backfill (one grouped scan), so no row is both missed by it and written without its trigger.
 */
export class CreateCustomerTimeBuckets1765200000000 implements MigrationInterface {
  name = 'CreateCustomerTimeBuckets1765200000000';

  async up(q: QueryRunner): Promise<void> {
    // floor, not a cast: a cast rounds, and 0.6 s before a bucket's end would land in the next one.
    await q.query(`
      CREATE FUNCTION customer_time_bucket(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT (floor(extract(epoch FROM at))::bigint >> 21)::integer $$`);
    await q.query(`
      CREATE TABLE customer_time_buckets (
        company_id varchar(64) NOT NULL,
        status varchar(20) NOT NULL,
        id_bucket bigint NOT NULL,
        modified_bucket integer NOT NULL,
        created_bucket integer NOT NULL,
        row_count integer NOT NULL,
        PRIMARY KEY (company_id, status, id_bucket, modified_bucket, created_bucket)
      )`);
    // Deltas (plus for new rows, minus for old ones) are grouped and applied in key order, so that
    // concurrent writers lock cells in one order; a delete's cells always exist, so one upsert serves all.
    const cell = `company_id, status, internal_id >> 14 AS id_bucket,
      customer_time_bucket(last_modified_at) AS modified_bucket, customer_time_bucket(created_at) AS created_bucket`;
    const apply = (deltas: string) => `
      INSERT INTO customer_time_buckets AS b (company_id, status, id_bucket, modified_bucket, created_bucket, row_count)
      SELECT company_id, status, id_bucket, modified_bucket, created_bucket, sum(delta) FROM (${deltas}) deltas
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5
      ON CONFLICT (company_id, status, id_bucket, modified_bucket, created_bucket)
      DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count`;
    await q.query(`
      CREATE FUNCTION customer_time_buckets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${apply(`SELECT ${cell}, 1 AS delta FROM new_rows`)};
        ELSIF TG_OP = 'DELETE' THEN
          ${apply(`SELECT ${cell}, -1 AS delta FROM old_rows`)};
        ELSE
          -- Every update moves last_modified_at; a row whose cell stays the same cancels out.
          ${apply(`SELECT ${cell}, -1 AS delta FROM old_rows UNION ALL SELECT ${cell}, 1 FROM new_rows`)};
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER customers_time_buckets_insert AFTER INSERT ON customers
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_time_buckets_apply()`);
    await q.query(`
      CREATE TRIGGER customers_time_buckets_update AFTER UPDATE ON customers
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_time_buckets_apply()`);
    await q.query(`
      CREATE TRIGGER customers_time_buckets_delete AFTER DELETE ON customers
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_time_buckets_apply()`);
    await q.query(`
      CREATE FUNCTION customer_time_buckets_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE customer_time_buckets;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER customers_time_buckets_truncate AFTER TRUNCATE ON customers
      FOR EACH STATEMENT EXECUTE FUNCTION customer_time_buckets_clear()`);
    await q.query(`
      INSERT INTO customer_time_buckets (company_id, status, id_bucket, modified_bucket, created_bucket, row_count)
      SELECT ${cell}, count(*) FROM customers GROUP BY 1, 2, 3, 4, 5`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER customers_time_buckets_truncate ON customers`);
    await q.query(`DROP TRIGGER customers_time_buckets_delete ON customers`);
    await q.query(`DROP TRIGGER customers_time_buckets_update ON customers`);
    await q.query(`DROP TRIGGER customers_time_buckets_insert ON customers`);
    await q.query(`DROP FUNCTION customer_time_buckets_clear()`);
    await q.query(`DROP FUNCTION customer_time_buckets_apply()`);
    await q.query(`DROP TABLE customer_time_buckets`);
    await q.query(`DROP FUNCTION customer_time_bucket(timestamptz)`);
  }
}
