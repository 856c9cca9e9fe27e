import { Client } from 'pg';
import { CUSTOMER_SETTINGS, type CustomerSettings } from './customer-settings';
import { NameCountScheduler } from '../name-counts/name-count-scheduler';
import { NameFragmentRegistration } from '../name-counts/name-fragment-registration';
import { expectedCustomerNumbers } from '../testing/customer-list-oracle';
import type { CustomersTestApp } from '../testing/customers-test-app';
import * as nameCounts from '../testing/customer-name-counts-testing';

const {
  NAME_COMPANY: COMPANY,
  NAME_OTHER: OTHER,
  NAME_MIN_MATCHES: MIN_MATCHES,
  NAME_PER_COMPANY: PER_COMPANY,
} = nameCounts;
let t: CustomersTestApp;
let headers: Record<string, string>;
const { search, registered, expectNameCellsExact, expectNameWalk } = nameCounts.nameCountHelpers(
  () => t,
  () => headers,
);

/** Registering a name fragment's counts never makes a write of the company wait (issue 31). */
describe('name-count registration beside writes', () => {
  beforeAll(async () => {
    t = await nameCounts.startNameCountsApp();
    headers = await t.auth.headers({ company: COMPANY });
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('waits for the writes open when a fragment appears, counts their rows, and never holds a write meanwhile', async () => {
    const open = new Client({ connectionString: t.database.url });
    const other = new Client({ connectionString: t.database.url });
    await Promise.all([open.connect(), other.connect()]);
    try {
      // A write open first: its trigger ran before the fragment existed, so the registration must
      // wait for its commit and then count its row from the rows.
      // (Another status and time than the writes below: writes sharing a count cell wait for each
      // other's commit, with or without name counts.)
      await open.query('BEGIN');
      await open.query(
        `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) VALUES ($1, 'C1', 'Skogbygg C1', 'OnHold', '2019-01-01', '2019-01-01')`,
        [COMPANY],
      );
      let settled = false;
      const registration = names()
        .register(COMPANY, 'skogbygg', PER_COMPANY)
        .finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(settled).toBe(false);
      // Meanwhile the company's other writes go on without waiting for anything.
      await other.query(`SET lock_timeout = '200ms'`);
      await insert(other, 'C2', 'Skogbygg C2');
      await other.query(
        `UPDATE customers SET name = 'Skogbygg C2 renamed' WHERE company_id = $1 AND number = 'C2'`,
        [COMPANY],
      );
      expect(settled).toBe(false);
      await open.query('COMMIT');
      expect(await registration).toBe('registered');
      expect(await fragmentTotal('skogbygg')).toBe(2);
      await expectNameCellsExact();
    } finally {
      await Promise.all([open.end(), other.end()]);
    }
  });

  it('never makes a write wait while it backfills, however slow the backfill, and reads ignore the fragment until it is complete', async () => {
    const writer = new Client({ connectionString: t.database.url });
    const gate = new Client({ connectionString: t.database.url });
    await Promise.all([writer.connect(), gate.connect()]);
    // The backfill lasts until the test opens the gate: a write that waited for it (the old
    // registration held the writes' locks for the whole backfill) would still wait when the test
    // looks, or would have seen it end (at its 30 s statement timeout, failing the registration).
    const backfillGate = await closeBackfillGate(gate);
    try {
      const expected = await expectedCustomerNumbers(t.sql, COMPANY, { name: 'bygg_co' });
      expect(expected.length).toBeGreaterThan(MIN_MATCHES);
      const registration = names().register(COMPANY, 'bygg_co', PER_COMPANY);
      await waitForBackfill();
      // Writes that add, rename into, rename out of and delete matches, each done while the
      // backfill still waits at the gate.
      const { rows: victims } = await writer.query<{ number: string }>(
        `SELECT number FROM customers WHERE company_id = $1 AND strpos(lower(name), 'bygg_co') > 0 ORDER BY internal_id LIMIT 3`,
        [COMPANY],
      );
      const writes = [
        () => insert(writer, 'B1', 'New Bygg_Co B1'),
        () =>
          writer.query(
            `UPDATE customers SET name = 'Bygg_Co renamed' WHERE company_id = $1 AND number = 'N000010'`,
            [COMPANY],
          ),
        () =>
          writer.query(`UPDATE customers SET name = 'Renamed away' WHERE company_id = $1 AND number = $2`, [
            COMPANY,
            victims[0].number,
          ]),
        () =>
          writer.query(`DELETE FROM customers WHERE company_id = $1 AND number = $2`, [
            COMPANY,
            victims[1].number,
          ]),
        () =>
          writer.query(
            `UPDATE customers SET status = 'OnHold', last_modified_at = now() WHERE company_id = $1 AND number = $2`,
            [COMPANY, victims[2].number],
          ),
      ];
      for (const write of writes) {
        await write();
        expect(await backfilling()).toBe(true);
      }
      // Still backfilling: a read counts the rows, not the incomplete cells.
      expect(await search('bygg_co')).toBe(
        (await expectedCustomerNumbers(t.sql, COMPANY, { name: 'bygg_co' })).length,
      );
      expect(await backfilling()).toBe(true);
      await backfillGate.open();
      expect(await registration).toBe('registered');
      await backfillGate.restore();
      await expectNameCellsExact();
      await expectNameWalk(COMPANY, headers, 'bygg_co', 100);
    } finally {
      await backfillGate.restore();
      await Promise.all([writer.end(), gate.end()]);
    }
  }, 120_000);

  it('gives up when a write stays open too long, drops its fragment, and the write commits', async () => {
    const writer = new Client({ connectionString: t.database.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await insert(writer, 'G1', 'Gap 1');
      await expect(names().register(COMPANY, 'gap', PER_COMPANY)).rejects.toThrow(/stayed open/);
      await insert(writer, 'G2', 'Gap 2');
      await writer.query('COMMIT');
      // Its drop waited for the same write in vain: left retiring (skipped by reads and writes)
      // for the company's next registration to delete (the next test checks it did).
      expect(await registered()).not.toContain('gap');
      const { rows } = await t.sql.query(
        `SELECT state FROM customer_name_fragments WHERE company_id = $1 AND fragment = 'gap'`,
        [COMPANY],
      );
      expect(rows).toEqual([{ state: 'retiring' }]);
    } finally {
      await writer.end();
    }
  }, 45_000);

  it('registers one fragment of a company at a time, and those searched meanwhile after it', async () => {
    const fragments = ['customer 2', 'customer 3', 'customer 4'];
    let most = 0;
    const watch = setInterval(() => {
      void t.sql
        .query<{ n: number }>(
          `SELECT count(*)::int AS n FROM customer_name_fragments WHERE company_id = $1 AND state = 'building'`,
          [COMPANY],
        )
        .then(({ rows }) => (most = Math.max(most, rows[0].n)));
    }, 5);
    try {
      await Promise.all(
        fragments.map((name) =>
          t.http
            .request(`/v1/customer?${new URLSearchParams({ name, pageSize: '1' })}`, { headers })
            .then((r) => r.text()),
        ),
      );
      await scheduler().settled();
    } finally {
      clearInterval(watch);
    }
    expect(await registered()).toEqual(expect.arrayContaining(fragments));
    expect(most).toBeLessThanOrEqual(1);
    // The fragment the test above left retiring is gone: every registration deletes those.
    expect(
      (await t.sql.query(`SELECT fragment FROM customer_name_fragments WHERE state <> 'ready'`)).rows,
    ).toEqual([]);
    await expectNameCellsExact();
  });

  it('replaces a kept fragment at most once per CUSTOMER_NAME_COUNT_REPLACE_INTERVAL_MS, and fills free places at once', async () => {
    const settings = t.service.app.get<CustomerSettings>(CUSTOMER_SETTINGS);
    const interval = 1500;
    settings.nameCounts.replaceIntervalMs = interval;
    const pause = () => new Promise((resolve) => setTimeout(resolve, interval + 100));
    try {
      expect(await registered()).toHaveLength(PER_COMPANY);
      await pause();
      expect(await names().register(COMPANY, 'customer 5', PER_COMPANY)).toBe('registered');
      // Full, and replaced one just now: the next waits, also when a search asks for it.
      expect(await names().register(COMPANY, 'customer 6', PER_COMPANY)).toBe('throttled');
      await search('customer 7');
      expect(await registered()).toEqual(expect.arrayContaining(['customer 5']));
      expect(await registered()).not.toContain('customer 6');
      expect(await registered()).not.toContain('customer 7');
      await pause();
      expect(await names().register(COMPANY, 'customer 6', PER_COMPANY)).toBe('registered');
      expect(await registered()).toHaveLength(PER_COMPANY);
      // Another company with free places registers at once.
      expect(await names().register(OTHER, 'customer 6', PER_COMPANY)).toBe('registered');
      expect(await names().register(OTHER, 'customer 7', PER_COMPANY)).toBe('registered');
      await expectNameCellsExact();
    } finally {
      settings.nameCounts.replaceIntervalMs = 0;
    }
  });
});

const names = () => t.service.app.get(NameFragmentRegistration);
const scheduler = () => t.service.app.get(NameCountScheduler);

const insert = (client: Client, number: string, name: string) =>
  client.query(
    `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) VALUES ($1, $2, $3, 'Active', now(), now())`,
    [COMPANY, number, name],
  );

async function fragmentTotal(fragment: string): Promise<number> {
  const { rows } = await t.sql.query<{ n: number }>(
    `SELECT sum(row_count)::int AS n FROM customer_name_cells c JOIN customer_name_fragments f ON f.id = c.fragment_id WHERE f.company_id = $1 AND f.fragment = $2`,
    [COMPANY, fragment],
  );
  return rows[0].n;
}

/**
 * Makes the registration's backfill, and only it, wait (in pg_sleep, so `backfilling()` sees it) at
 * each row until `open()`: the cell function polls for an advisory lock that `holder` keeps until
 * then, in read-only transactions, which is what the backfill's snapshot is and no write is (as
 * `setBackfill` does). `restore()` puts the migrated function back.
 */
async function closeBackfillGate(holder: Client): Promise<{ open(): Promise<void>; restore(): Promise<void> }> {
  const GATE = 3_103_101;
  const { rows } = await t.sql.query<{ definition: string; body: string }>(
    `SELECT pg_get_functiondef(p.oid) AS definition, p.prosrc AS body FROM pg_proc p WHERE p.oid = 'customer_name_time_bucket(timestamptz)'::regprocedure`,
  );
  const migrated = rows[0];
  await holder.query('SELECT pg_advisory_lock($1)', [GATE]);
  await t.sql.query(
    `CREATE OR REPLACE FUNCTION customer_name_time_bucket(at timestamptz) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $gated$
     BEGIN
       IF current_setting('transaction_read_only') = 'on' THEN
         WHILE NOT pg_try_advisory_lock_shared(${GATE}) LOOP PERFORM pg_sleep(0.005); END LOOP;
         PERFORM pg_advisory_unlock_shared(${GATE});
       END IF;
       RETURN (${migrated.body});
     END $gated$`,
  );
  let opened = false;
  let restored = false;
  const open = async () => {
    if (!opened) await holder.query('SELECT pg_advisory_unlock($1)', [GATE]);
    opened = true;
  };
  return {
    open,
    async restore() {
      await open();
      if (!restored) await t.sql.query(migrated.definition);
      restored = true;
    },
  };
}

const backfilling = () => nameCounts.backfilling(t.sql);
const waitForBackfill = () => nameCounts.waitForBackfill(t.sql);
