import { createCountTriggersV1, dropCountTriggersV1 } from '@erp/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exact counts of the customers whose name contains a searched fragment, for the fragments a
 * company searches broadly (`name=bygg` matching 7% of a million names costs a 250 ms recheck of
 * every match per request otherwise; see `libs/customers-queries/README.md`, "Name counts").
 *
 * - `customer_name_fragments`: the fragments counted per company (lower-cased as the filter lowers
 *   them), registered by the service the first time a fragment matches many rows, at most a
 *   service-set number per company (least recently used first out).
 * - `customer_name_cells`: per fragment, status, `internal_id >> 12` and the two timestamps'
 *   buckets of 2^19 s (`customer_name_time_bucket()`), the number of customers whose `lower(name)`
 *   contains it. Smaller buckets than the list cells' (2^14 ids, 2^21 s): a page seek rechecks the
 *   name of every row of the id bucket it starts in, and a range's boundary bucket is counted from
 *   the rows.
 *
 * The statement triggers keep the cells exact like the other count cells: a write adds and removes
 * its rows' cells for each fragment of its company that the name contains. Registration
 * (`register_customer_name_fragment`) backfills a fragment's cells from the rows; for no row to be
 * both missed by the backfill and written without the fragment, writers hold a shared advisory lock
 * per company (taken by the trigger) and registration an exclusive one, taken in a gap between
 * the company's writes (tried, not queued for); the company's writes then wait for the backfill
 * (0.6 s at 1M customers).
 * That needs writers at READ COMMITTED, where the trigger's next statement sees the fragment just
 * registered; the trigger refuses other isolation levels rather than miss it.
 */
export class CreateCustomerNameCounts1766200000000 implements MigrationInterface {
  name = 'CreateCustomerNameCounts1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE customer_name_fragments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id varchar(64) NOT NULL,
        fragment varchar(255) NOT NULL,
        used_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (company_id, fragment)
      )`);
    await q.query(`
      CREATE TABLE customer_name_cells (
        company_id varchar(64) NOT NULL,
        fragment_id bigint NOT NULL REFERENCES customer_name_fragments ON DELETE CASCADE,
        status varchar(20) NOT NULL,
        id_bucket bigint NOT NULL,
        modified_bucket integer NOT NULL,
        created_bucket integer NOT NULL,
        row_count integer NOT NULL,
        PRIMARY KEY (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket)
      )`);
    // The writers' and the registration's lock of one company's fragments.
    await q.query(`
      CREATE FUNCTION customer_name_lock_key(company varchar) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT hashtextextended('customer_name_fragments:' || company, 0) $$`);
    // Time buckets of 2^19 s (6 days), a quarter of the list cells': a name with a timestamp range
    // counts its boundary bucket from the rows, and a name's cells are few enough to sum.
    await q.query(`
      CREATE FUNCTION customer_name_time_bucket(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT (floor(extract(epoch FROM at))::bigint >> 19)::integer $$`);
    const cell = `r.company_id, f.id, r.status, r.internal_id >> 12,
      customer_name_time_bucket(r.last_modified_at), customer_name_time_bucket(r.created_at)`;
    // strpos, not LIKE: the fragment is plain text, and it equals the filter's escaped LIKE '%x%'.
    const matches = (rows: string, delta: number) => `
      SELECT ${cell}, ${delta} FROM ${rows} r
      JOIN customer_name_fragments f ON f.company_id = r.company_id AND strpos(lower(r.name), f.fragment) > 0`;
    const apply = (deltas: string) => `
      INSERT INTO customer_name_cells AS b (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket, row_count)
      SELECT c, f, s, i, m, cr, sum(d) FROM (${deltas}) deltas (c, f, s, i, m, cr, d)
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket)
      DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count`;
    // Locks in company order, so that two writers of several companies cannot deadlock. The
    // statements after the lock see a fragment registered while this one waited for it.
    const lockAndCheck = (rows: string) => `
      IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'customers are written at READ COMMITTED: the name counts of customer_name_cells need it';
      END IF;
      PERFORM pg_advisory_xact_lock_shared(customer_name_lock_key(company_id))
        FROM (SELECT DISTINCT company_id FROM ${rows}) companies ORDER BY company_id;
      IF NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT company_id FROM ${rows}) companies
                     WHERE EXISTS (SELECT 1 FROM customer_name_fragments f WHERE f.company_id = companies.company_id)) THEN
        RETURN NULL;
      END IF;`;
    await q.query(`
      CREATE FUNCTION customer_name_cells_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${lockAndCheck('new_rows')}
          ${apply(matches('new_rows', 1))};
        ELSIF TG_OP = 'DELETE' THEN
          ${lockAndCheck('old_rows')}
          ${apply(matches('old_rows', -1))};
        ELSE
          -- A row keeps its company: the new rows name every company the statement touched.
          ${lockAndCheck('new_rows')}
          ${apply(`${matches('old_rows', -1)} UNION ALL ${matches('new_rows', 1)}`)};
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION customer_name_cells_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE customer_name_cells;
        RETURN NULL;
      END $$`);
    await createCountTriggersV1(q, 'customers', 'customers_name_cells', 'customer_name_cells_apply', 'customer_name_cells_clear');
    // Registers (company, fragment) and backfills its cells, then drops the company's least
    // recently used fragments beyond `keep`. Returns false when it is registered already, or when
    // the company's writes left no gap for the lock within 2 s (a later request tries again).
    // The lock is tried, never queued for: a queued exclusive request would make every new write
    // of the company wait behind it, and could close a deadlock with writes waiting on each other.
    // The backfill is EXECUTEd so that each fragment is planned with its own pattern (the trigram index).
    await q.query(`
      CREATE FUNCTION register_customer_name_fragment(p_company varchar, p_fragment varchar, p_keep integer) RETURNS boolean
      LANGUAGE plpgsql AS $$
      DECLARE
        registered bigint;
      BEGIN
        IF EXISTS (SELECT 1 FROM customer_name_fragments WHERE company_id = p_company AND fragment = p_fragment) THEN
          RETURN false;
        END IF;
        FOR attempt IN 1..40 LOOP
          EXIT WHEN pg_try_advisory_xact_lock(customer_name_lock_key(p_company));
          IF attempt = 40 THEN
            RETURN false;
          END IF;
          PERFORM pg_sleep(0.05);
        END LOOP;
        INSERT INTO customer_name_fragments AS f (company_id, fragment) VALUES (p_company, p_fragment)
          ON CONFLICT (company_id, fragment) DO NOTHING RETURNING f.id INTO registered;
        IF registered IS NULL THEN
          RETURN false;
        END IF;
        EXECUTE $backfill$
          INSERT INTO customer_name_cells (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket, row_count)
          SELECT ${cell}, count(*) FROM customers r JOIN customer_name_fragments f ON f.id = $2
          WHERE r.company_id = $1 AND lower(r.name) LIKE '%' || replace(replace(replace($3, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
          GROUP BY 1, 2, 3, 4, 5, 6
        $backfill$ USING p_company, registered, p_fragment;
        DELETE FROM customer_name_fragments WHERE id IN (
          SELECT id FROM customer_name_fragments WHERE company_id = p_company ORDER BY used_at DESC, id DESC OFFSET p_keep);
        RETURN true;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION register_customer_name_fragment(varchar, varchar, integer)`);
    await dropCountTriggersV1(q, 'customers', 'customers_name_cells');
    await q.query(`DROP FUNCTION customer_name_cells_clear()`);
    await q.query(`DROP FUNCTION customer_name_cells_apply()`);
    await q.query(`DROP FUNCTION customer_name_lock_key(varchar)`);
    await q.query(`DROP FUNCTION customer_name_time_bucket(timestamptz)`);
    await q.query(`DROP TABLE customer_name_cells`);
    await q.query(`DROP TABLE customer_name_fragments`);
  }
}
