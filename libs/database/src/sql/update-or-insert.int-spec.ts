import type { DataSource } from 'typeorm';
import { createDataSource } from '../data-source/create-data-source';
import { createScratchDatabase } from '../test-support/scratch-database';
import { updateOrInsert } from './update-or-insert';

const STATEMENTS = {
  update: `UPDATE items SET label = :label WHERE id = :id RETURNING label`,
  insert: `INSERT INTO items (id, label) VALUES (:id, :label) ON CONFLICT (id) DO NOTHING RETURNING label`,
};

describe('updateOrInsert (create or replace without xmax)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: DataSource;

  beforeAll(async () => {
    database = await createScratchDatabase('upsert');
    db = createDataSource({ url: database.url, entities: [], migrations: [], applicationName: 'database-lib-test' });
    await db.initialize();
    await db.query(`CREATE TABLE items (serial_no int GENERATED ALWAYS AS IDENTITY, id text PRIMARY KEY, label text NOT NULL)`);
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const write = (id: string, label: string) => db.transaction((tx) => updateOrInsert<{ label: string }>(tx, STATEMENTS, { id, label }));

  it('creates a new row, then replaces it, answering which it did with the returned rows', async () => {
    expect(await write('a', 'first')).toEqual({ created: true, rows: [{ label: 'first' }] });
    expect(await write('a', 'second')).toEqual({ created: false, rows: [{ label: 'second' }] });
    expect(await db.query(`SELECT label FROM items WHERE id = 'a'`)).toEqual([{ label: 'second' }]);
  });

  it('draws no identity value for a replace', async () => {
    await write('b', 'one');
    await write('b', 'two');
    await write('c', 'one');
    expect(await db.query(`SELECT id, serial_no FROM items WHERE id IN ('b', 'c') ORDER BY id`)).toEqual([
      { id: 'b', serial_no: 2 },
      { id: 'c', serial_no: 3 },
    ]);
  });

  it('lets exactly one of concurrent first writes of a key create it; the others replace it', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => write('raced', `writer ${i}`)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await db.query(`SELECT count(*)::int AS n FROM items WHERE id = 'raced'`)).toEqual([{ n: 1 }]);
  });
});
