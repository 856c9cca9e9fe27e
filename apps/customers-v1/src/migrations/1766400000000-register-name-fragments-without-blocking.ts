import type { MigrationInterface, QueryRunner } from 'typeorm';

const CELL = `r.company_id, f.id, r.status, r.internal_id >> 12,
  customer_name_time_bucket(r.last_modified_at), customer_name_time_bucket(r.created_at)`;
/** `lower(r.name)` contains `$3` (a plain fragment): LIKE with its wildcards escaped, so that the trigram index serves it. */
const CONTAINS = `lower(r.name) LIKE '%' || replace(replace(replace($3, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

/**
 * The statement trigger's function: without the advisory lock (this migration), or with it as
 * 1766200000000 created it (`locked`, for down()). A retiring fragment is skipped: its cells are
 * deleted once no write that saw it is open.
 */
function applyFunction(locked: boolean): string {
  const matches = (rows: string, delta: number) => `
      SELECT ${CELL}, ${delta} FROM ${rows} r
      JOIN customer_name_fragments f ON f.company_id = r.company_id${locked ? '' : ` AND f.state <> 'retiring'`} AND strpos(lower(r.name), f.fragment) > 0`;
  const apply = (deltas: string) => `
      INSERT INTO customer_name_cells AS b (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket, row_count)
      SELECT c, f, s, i, m, cr, sum(d) FROM (${deltas}) deltas (c, f, s, i, m, cr, d)
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
      ON CONFLICT (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket)
      DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count`;
  const lock = (rows: string) =>
    locked
      ? `PERFORM pg_advisory_xact_lock_shared(customer_name_lock_key(company_id))
        FROM (SELECT DISTINCT company_id FROM ${rows}) companies ORDER BY company_id;`
      : '';
  const check = (rows: string) => `
      ${lock(rows)}
      IF NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT company_id FROM ${rows}) companies
                     WHERE EXISTS (SELECT 1 FROM customer_name_fragments f WHERE f.company_id = companies.company_id)) THEN
        RETURN NULL;
      END IF;`;
  return `
      CREATE OR REPLACE FUNCTION customer_name_cells_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('transaction_isolation') <> 'read committed' THEN
          RAISE EXCEPTION 'customers are written at READ COMMITTED: the name counts of customer_name_cells need it';
        END IF;
        IF TG_OP = 'INSERT' THEN
          ${check('new_rows')}
          ${apply(matches('new_rows', 1))};
        ELSIF TG_OP = 'DELETE' THEN
          ${check('old_rows')}
          ${apply(matches('old_rows', -1))};
        ELSE
          -- A row keeps its company: the new rows name every company the statement touched.
          ${check('new_rows')}
          ${apply(`${matches('old_rows', -1)} UNION ALL ${matches('new_rows', 1)}`)};
        END IF;
        RETURN NULL;
      END $$`;
}

/**
 * Name counts registered without making the company's writers wait (issue 31). Until now a
 * registration took an exclusive advisory lock per company, which every write's trigger took
 * shared, and backfilled under it: any `GET ?name=` with a broad fragment could hold the company's
 * writes for the backfill (up to 5 s). Now nothing a registration does is waited on by a writer:
 *
 * - `customer_name_fragments.state`: `building` (registered, counts not complete: the writers'
 *   triggers already add their deltas to its cells, reads do not use it), `ready` (read), `retiring`
 *   (being dropped: the triggers skip it, so that its cells can be deleted without a writer waiting
 *   on them or inserting a cell for a fragment that is gone). Fragments kept so far are `ready`.
 * - The trigger no longer takes the advisory lock. It still refuses other isolation levels than
 *   READ COMMITTED: the service's registration (CustomerNameCounts) waits, after committing a
 *   `building` fragment, for every transaction of the database that had an xid at that moment, so
 *   that every write whose trigger did not see the fragment is committed before the backfill's
 *   snapshot; a write that got its xid later runs its trigger's statements with later snapshots
 *   (READ COMMITTED), which see the fragment.
 * - `customer_name_fragment_adjustments(company, fragment_id)`: read in one REPEATABLE READ
 *   snapshot, the fragment's exact counts from the rows minus its cells as that snapshot sees them
 *   (the deltas of the writes it already counts). Adding these to the cells leaves exactly the
 *   snapshot's counts plus the deltas of the writes it does not see: exact. It only reads.
 *
 * `register_customer_name_fragment` and `customer_name_lock_key` are dropped: the service drives the
 * steps (each in its own short transaction) and nothing takes the lock any more.
 */
export class RegisterNameFragmentsWithoutBlocking1766400000000 implements MigrationInterface {
  name = 'RegisterNameFragmentsWithoutBlocking1766400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE customer_name_fragments ADD COLUMN state varchar(10) NOT NULL DEFAULT 'ready'
        CONSTRAINT customer_name_fragments_state_check CHECK (state IN ('building', 'ready', 'retiring'))`);
    await q.query(`ALTER TABLE customer_name_fragments ALTER COLUMN state SET DEFAULT 'building'`);
    await q.query(applyFunction(false));
    await q.query(`DROP FUNCTION register_customer_name_fragment(varchar, varchar, integer)`);
    await q.query(`DROP FUNCTION customer_name_lock_key(varchar)`);
    // strpos in the triggers equals the filter's escaped LIKE '%x%', which the trigram index serves;
    // EXECUTEd so that each fragment is planned with its own pattern.
    await q.query(`
      CREATE FUNCTION customer_name_fragment_adjustments(p_company varchar, p_fragment_id bigint)
      RETURNS TABLE (status varchar, id_bucket bigint, modified_bucket integer, created_bucket integer, delta integer)
      LANGUAGE plpgsql STABLE AS $$
      DECLARE
        p_fragment varchar;
      BEGIN
        SELECT f.fragment INTO p_fragment FROM customer_name_fragments f WHERE f.id = p_fragment_id AND f.company_id = p_company;
        IF p_fragment IS NULL THEN
          RETURN;
        END IF;
        RETURN QUERY EXECUTE $adjust$
          SELECT s, i, m, cr, sum(d)::integer FROM (
            SELECT r.status, r.internal_id >> 12, customer_name_time_bucket(r.last_modified_at), customer_name_time_bucket(r.created_at), 1
            FROM customers r
            WHERE r.company_id = $1 AND ${CONTAINS}
            UNION ALL
            SELECT b.status, b.id_bucket, b.modified_bucket, b.created_bucket, -b.row_count
            FROM customer_name_cells b WHERE b.company_id = $1 AND b.fragment_id = $2
          ) deltas (s, i, m, cr, d)
          GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
        $adjust$ USING p_company, p_fragment_id, p_fragment;
      END $$`);
  }

  /**
   * Back to 1766200000000's locking registration. Fragments not `ready` are dropped with their
   * cells (their counts may be incomplete); the next broad searches register them again.
   */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION customer_name_fragment_adjustments(varchar, bigint)`);
    await q.query(`DELETE FROM customer_name_fragments WHERE state <> 'ready'`);
    await q.query(`ALTER TABLE customer_name_fragments DROP COLUMN state`);
    await q.query(`
      CREATE FUNCTION customer_name_lock_key(company varchar) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT hashtextextended('customer_name_fragments:' || company, 0) $$`);
    await q.query(applyFunction(true));
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
          SELECT ${CELL}, count(*) FROM customers r JOIN customer_name_fragments f ON f.id = $2
          WHERE r.company_id = $1 AND ${CONTAINS}
          GROUP BY 1, 2, 3, 4, 5, 6
        $backfill$ USING p_company, registered, p_fragment;
        DELETE FROM customer_name_fragments WHERE id IN (
          SELECT id FROM customer_name_fragments WHERE company_id = p_company ORDER BY used_at DESC, id DESC OFFSET p_keep);
        RETURN true;
      END $$`);
  }
}
