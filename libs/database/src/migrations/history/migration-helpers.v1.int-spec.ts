import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createScratchDatabase } from '../../test-support/scratch-database';
import { createCountCellsV1, dropCountCellsV1, swapIndexConcurrentlyV1 } from './migration-helpers.v1';

const PLAIN = '(company_id, internal_id)';
const COVERING = '(company_id, internal_id) INCLUDE (status)';

describe('swapIndexConcurrentlyV1', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let sql: Client;
  let source: DataSource;

  beforeAll(async () => {
    db = await createScratchDatabase('index_swap');
    sql = new Client(db.url);
    await sql.connect();
    source = new DataSource({ type: 'postgres', url: db.url });
    await source.initialize();
  });
  afterAll(async () => {
    await source.destroy();
    await sql.end();
    await db.drop();
  });
  beforeEach(async () => {
    await sql.query(`DROP TABLE IF EXISTS items`);
    await sql.query(`CREATE TABLE items (internal_id bigint, company_id text, status text)`);
    await sql.query(`INSERT INTO items SELECT i, 'c' || (i % 3), 'Open' FROM generate_series(1, 500) i`);
    await sql.query(`CREATE INDEX items_list_idx ON items ${PLAIN}`);
  });

  /** The table's indexes: name -> definition, and whether each is valid. */
  async function indexes(): Promise<Array<{ name: string; definition: string; valid: boolean }>> {
    const { rows } = await sql.query(
      `SELECT c.relname AS name, pg_get_indexdef(c.oid) AS definition, i.indisvalid AS valid
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'items'::regclass ORDER BY 1`,
    );
    return rows;
  }

  async function swap(definition: string): Promise<void> {
    const runner = source.createQueryRunner();
    try {
      await swapIndexConcurrentlyV1(runner, 'items', 'items_list_idx', definition);
    } finally {
      await runner.release();
    }
  }

  const covering = [{ name: 'items_list_idx', definition: `CREATE INDEX items_list_idx ON public.items USING btree (company_id, internal_id) INCLUDE (status)`, valid: true }];

  it('replaces the index by one with the new definition under the same name', async () => {
    await swap(COVERING);
    expect(await indexes()).toEqual(covering);
  });

  it('builds again over a half-built index left by a build that failed', async () => {
    // What a failed CREATE INDEX CONCURRENTLY leaves: an invalid index under the new name.
    await sql.query(`CREATE INDEX items_list_idx_next ON items ${COVERING}`);
    await sql.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'items_list_idx_next'::regclass`);
    await swap(COVERING);
    expect(await indexes()).toEqual(covering);
  });

  it('only renames when a run stopped after dropping the old index', async () => {
    await sql.query(`CREATE INDEX items_list_idx_next ON items ${COVERING}`);
    await sql.query(`DROP INDEX items_list_idx`);
    await swap(COVERING);
    expect(await indexes()).toEqual(covering);
  });
});

describe('createCountCellsV1 / dropCountCellsV1', () => {
  let db: Awaited<ReturnType<typeof createScratchDatabase>>;
  let sql: Client;
  let source: DataSource;
  const CELLS = [{ name: 'item_cells', columns: [['status', 'text'], ['id_bucket', 'bigint']] as Array<[string, string]>, cell: 'status, internal_id >> 4' }];

  beforeAll(async () => {
    db = await createScratchDatabase('count_cells');
    sql = new Client(db.url);
    await sql.connect();
    source = new DataSource({ type: 'postgres', url: db.url });
    await source.initialize();
    await sql.query(`CREATE TABLE items (internal_id bigint, company_id varchar(64), status text)`);
    await sql.query(`INSERT INTO items SELECT i, 'c' || (i % 3), 'Open' FROM generate_series(1, 100) i`);
  });
  afterAll(async () => {
    await source.destroy();
    await sql.end();
    await db.drop();
  });

  async function run(step: (runner: ReturnType<DataSource['createQueryRunner']>) => Promise<void>): Promise<void> {
    const runner = source.createQueryRunner();
    try {
      await step(runner);
    } finally {
      await runner.release();
    }
  }

  /** Cells that differ from a fresh count of the rows. */
  async function wrongCells(): Promise<unknown[]> {
    const { rows } = await sql.query(
      `SELECT * FROM (SELECT company_id, status, internal_id >> 4 AS id_bucket, count(*)::int AS counted FROM items GROUP BY 1, 2, 3) k
       FULL JOIN item_cells c USING (company_id, status, id_bucket) WHERE coalesce(k.counted, 0) <> coalesce(c.row_count, 0)`,
    );
    return rows;
  }

  it('backfills the cells and keeps them exact through inserts, updates, deletes and truncate, and drops it all again', async () => {
    await run((runner) => createCountCellsV1(runner, 'items', 'item_cells', CELLS));
    expect(await wrongCells()).toEqual([]);
    await sql.query(`INSERT INTO items SELECT i, 'c1', 'Closed' FROM generate_series(101, 180) i`);
    await sql.query(`UPDATE items SET status = 'Hold', company_id = 'c2' WHERE internal_id % 7 = 0`);
    await sql.query(`DELETE FROM items WHERE internal_id % 11 = 0`);
    expect(await wrongCells()).toEqual([]);
    await sql.query(`TRUNCATE items`);
    expect((await sql.query(`SELECT count(*)::int AS n FROM item_cells`)).rows[0].n).toBe(0);
    await run((runner) => dropCountCellsV1(runner, 'items', 'item_cells', CELLS));
    const left = await sql.query(
      `SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'items'::regclass AND NOT tgisinternal
       UNION ALL SELECT proname FROM pg_proc WHERE proname LIKE 'item_cells%' UNION ALL SELECT to_regclass('item_cells')::text WHERE to_regclass('item_cells') IS NOT NULL`,
    );
    expect(left.rows).toEqual([]);
  });
});
