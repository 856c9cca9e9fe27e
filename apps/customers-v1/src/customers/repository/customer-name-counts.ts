import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { NameCountObserver } from '@erp/customers-queries';
import { CUSTOMER_SETTINGS, type CustomerSettings } from '../customer-settings';

/** A company's fragment is marked used at most this often (the mark only orders eviction). */
const USE_MARK_INTERVAL_MS = 10 * 60_000;
/** Bounds the memory of the marks and of the failed attempts; clearing them only means trying again. */
const MEMORY_MAX = 10_000;
/** The backfill's snapshot holds back vacuum (it locks nothing writers wait on): never longer than this. */
const BACKFILL_TIMEOUT = '30s';
/** How long a registration waits for the writes open when its fragment appeared, before it gives up. */
const OPEN_WRITES_WAIT_MS = 10_000;
const OPEN_WRITES_POLL_MS = 20;
/** Cells added per statement: each is a short upsert, like a write's own, on the new fragment's cells only. */
const ADJUST_CHUNK = 500;
/** A `building` fragment this old was left by a registration that died (a crash): it is dropped. */
const ABANDONED_AFTER = '10 minutes';
/** Fragments of one company that wait for its registration under way; more are dropped (a later search asks again). */
const PENDING_PER_COMPANY = 4;
/** After a registration that did not happen (open writes too long, too slow, an error), the next try waits this long. */
const RETRY_AFTER_MS = 10 * 60_000;

/** What register() did: counted it now, found it registered (or being registered), or left it for later (a replacement too soon). */
export type Registration = 'registered' | 'exists' | 'throttled';

interface Adjustment {
  status: string;
  id_bucket: string;
  modified_bucket: number;
  created_bucket: number;
  delta: number;
}

/**
 * Keeps the company's name counts (migrations 1766200000000 and 1766400000000): a fragment whose
 * exact count found at least `minMatches` customers is registered after the response, in the
 * background, so that its next requests read its cells; a registered fragment is marked used now
 * and then, and a company keeps its `perCompany` most recently used ones.
 *
 * A registration never makes a writer wait (issue 31), in short transactions of its own:
 * 1. the fragment is inserted as `building`: from the next statement on, the writers' triggers add
 *    their deltas to its cells (reads ignore it);
 * 2. it waits until every transaction that had an xid when step 1 committed has ended (polling
 *    pg_stat_activity, no lock): those are the only writes whose trigger may not have seen it;
 * 3. in one REPEATABLE READ snapshot, read only, the exact counts from the rows minus the cells the
 *    snapshot sees (`customer_name_fragment_adjustments`);
 * 4. adds those to the cells, 500 per statement, then marks it `ready`;
 * 5. drops the least recently used beyond `perCompany`: marked `retiring` (the triggers skip it),
 *    the writes that saw it waited for as in 2, then deleted with its cells.
 * At most one registration per company runs in this process at a time (up to 4 more wait their
 * turn), and once the company keeps `perCompany` fragments a new one replaces one at most every
 * `replaceIntervalMs`. One that fails drops its fragment again and is tried 10 minutes later; it only ever costs speed.
 */
@Injectable()
export class CustomerNameCounts implements NameCountObserver, BeforeApplicationShutdown {
  private readonly logger = new Logger(CustomerNameCounts.name);
  private readonly registering = new Map<string, Promise<void>>();
  private readonly usedAt = new Map<string, number>();
  private readonly failedAt = new Map<string, number>();
  /** When each company last began a registration that replaces a kept fragment. */
  private readonly replacedAt = new Map<string, number>();
  /** Fragments waiting for their company's registration under way, at most PENDING_PER_COMPANY each. */
  private readonly pending = new Map<string, string[]>();
  private closing = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(CUSTOMER_SETTINGS) private readonly settings: CustomerSettings,
  ) {}

  notCounted(companyId: string, fragment: string, matches: number): void {
    const { minMatches, perCompany } = this.settings.nameCounts;
    if (matches < minMatches || perCompany === 0 || this.closing) return;
    if (Date.now() - (this.failedAt.get(JSON.stringify([companyId, fragment])) ?? 0) < RETRY_AFTER_MS) return;
    // Full when it last replaced one: it still is, most likely, and the next replacement must wait.
    if (this.replacingTooSoon(companyId)) return;
    if (!this.registering.has(companyId)) return this.start(companyId, fragment, perCompany);
    // One at a time per company: a few wait their turn, later ones are tried again by a later search.
    const queue = this.pending.get(companyId) ?? [];
    if (queue.length < PENDING_PER_COMPANY && !queue.includes(fragment)) this.pending.set(companyId, [...queue, fragment]);
  }

  private start(companyId: string, fragment: string, perCompany: number): void {
    const key = JSON.stringify([companyId, fragment]);
    const registration = this.register(companyId, fragment, perCompany).then(
      (result) => {
        if (result === 'exists') this.remember(this.failedAt, key);
      },
      (error: unknown) => {
        this.remember(this.failedAt, key);
        this.logger.warn(`name counts of ${JSON.stringify(fragment)} not registered: ${String(error)}`);
      },
    );
    this.registering.set(
      companyId,
      registration.finally(() => {
        this.registering.delete(companyId);
        const [next, ...rest] = this.pending.get(companyId) ?? [];
        if (rest.length > 0) this.pending.set(companyId, rest);
        else this.pending.delete(companyId);
        if (next !== undefined && !this.closing) this.start(companyId, next, perCompany);
      }),
    );
  }

  private replacingTooSoon(companyId: string): boolean {
    return Date.now() - (this.replacedAt.get(companyId) ?? -Infinity) < this.settings.nameCounts.replaceIntervalMs;
  }

  /**
   * Registers the fragment (the steps above). A company that keeps `perCompany` fragments already
   * replaces one at most every `replaceIntervalMs`: a client cycling broad fragments then costs one
   * backfill per interval instead of a stream of them.
   */
  async register(companyId: string, fragment: string, perCompany: number): Promise<Registration> {
    const [{ kept }] = await this.db.query<Array<{ kept: number }>>(
      `SELECT count(*)::int AS kept FROM customer_name_fragments WHERE company_id = $1 AND state <> 'retiring'`,
      [companyId],
    );
    const replacing = kept >= perCompany;
    if (replacing && this.replacingTooSoon(companyId)) return 'throttled';
    const inserted = await this.db.query<Array<{ id: string }>>(
      `INSERT INTO customer_name_fragments AS f (company_id, fragment, state) VALUES ($1, $2, 'building')
       ON CONFLICT (company_id, fragment) DO NOTHING RETURNING f.id`,
      [companyId, fragment],
    );
    if (inserted.length === 0) {
      await this.dropAbandoned(companyId, fragment);
      return 'exists';
    }
    if (replacing) this.remember(this.replacedAt, companyId);
    const id = inserted[0].id;
    try {
      await this.waitForOpenWrites();
      const adjustments = await this.adjustments(companyId, id);
      for (let start = 0; start < adjustments.length; start += ADJUST_CHUNK) {
        await this.adjust(companyId, id, adjustments.slice(start, start + ADJUST_CHUNK));
      }
      await this.db.query(`UPDATE customer_name_fragments SET state = 'ready', used_at = now() WHERE id = $1 AND state = 'building'`, [id]);
    } catch (error) {
      // Left `retiring` if its writes are still open: the company's next registration deletes it.
      await this.retire(companyId, [id]).catch((retireError: unknown) => this.logger.warn(`name counts of ${JSON.stringify(fragment)} not dropped yet: ${String(retireError)}`));
      throw error;
    }
    await this.retire(companyId, await this.leastRecentlyUsed(companyId, perCompany));
    return 'registered';
  }

  /**
   * Step 2: returns once every transaction of this database that holds an xid now has ended. A
   * write whose trigger read the fragments before the caller's last commit already had its xid then.
   */
  private async waitForOpenWrites(): Promise<void> {
    const open = await this.db.query<Array<{ pid: number; xid: string }>>(
      `SELECT pid, backend_xid::text AS xid FROM pg_stat_activity
       WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()`,
    );
    if (open.length === 0) return;
    const pids = open.map((o) => o.pid);
    const xids = open.map((o) => o.xid);
    for (const deadline = Date.now() + OPEN_WRITES_WAIT_MS; ; ) {
      const [{ left }] = await this.db.query<Array<{ left: number }>>(
        `SELECT count(*)::int AS left FROM pg_stat_activity a JOIN unnest($1::int[], $2::text[]) w (pid, xid) ON a.pid = w.pid AND a.backend_xid::text = w.xid`,
        [pids, xids],
      );
      if (left === 0) return;
      if (Date.now() > deadline) throw new Error(`${left} transactions stayed open for ${OPEN_WRITES_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, OPEN_WRITES_POLL_MS));
    }
  }

  /** Step 3: one snapshot, read only; takes no lock a writer waits on. */
  private async adjustments(companyId: string, id: string): Promise<Adjustment[]> {
    const runner = this.db.createQueryRunner();
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await runner.query(`SET LOCAL statement_timeout = '${BACKFILL_TIMEOUT}'`);
      const rows = (await runner.query(`SELECT * FROM customer_name_fragment_adjustments($1, $2)`, [companyId, id])) as Adjustment[];
      await runner.query('COMMIT');
      return rows;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** Step 4: in the triggers' key order, so that it and a write cannot wait on each other in a circle. */
  private async adjust(companyId: string, id: string, rows: Adjustment[]): Promise<void> {
    await this.db.query(
      `INSERT INTO customer_name_cells AS b (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket, row_count)
       SELECT $1, $2, s, i, m, c, d FROM unnest($3::varchar[], $4::bigint[], $5::int[], $6::int[], $7::int[]) a (s, i, m, c, d)
       ORDER BY s, i, m, c
       ON CONFLICT (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket)
       DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count`,
      [
        companyId,
        id,
        rows.map((r) => r.status),
        rows.map((r) => r.id_bucket),
        rows.map((r) => r.modified_bucket),
        rows.map((r) => r.created_bucket),
        rows.map((r) => r.delta),
      ],
    );
  }

  private async leastRecentlyUsed(companyId: string, keep: number): Promise<string[]> {
    const rows = await this.db.query<Array<{ id: string }>>(
      `SELECT id FROM customer_name_fragments WHERE company_id = $1 AND state = 'ready' ORDER BY used_at DESC, id DESC OFFSET $2`,
      [companyId, keep],
    );
    return rows.map((r) => r.id);
  }

  /** A `building` fragment left by a registration that died is dropped, so that a later request registers it again. */
  private async dropAbandoned(companyId: string, fragment: string): Promise<void> {
    const rows = await this.db.query<Array<{ id: string }>>(
      `SELECT id FROM customer_name_fragments WHERE company_id = $1 AND fragment = $2 AND state = 'building' AND used_at < now() - interval '${ABANDONED_AFTER}'`,
      [companyId, fragment],
    );
    await this.retire(
      companyId,
      rows.map((r) => r.id),
    );
  }

  /**
   * Step 5: drops fragments (and any another drop left `retiring`) without a writer waiting: once
   * `retiring` is committed no new statement touches their cells, and the delete waits for those
   * that had begun.
   */
  private async retire(companyId: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.db.query(`UPDATE customer_name_fragments SET state = 'retiring' WHERE id = ANY($1::bigint[])`, [ids]);
    const retiring = await this.db.query<Array<{ id: string }>>(`SELECT id FROM customer_name_fragments WHERE company_id = $1 AND state = 'retiring'`, [companyId]);
    if (retiring.length === 0) return;
    await this.waitForOpenWrites();
    await this.db.query(`DELETE FROM customer_name_fragments WHERE id = ANY($1::bigint[]) AND state = 'retiring'`, [retiring.map((r) => r.id)]);
  }

  private remember(times: Map<string, number>, key: string): void {
    if (times.size >= MEMORY_MAX) times.clear();
    times.set(key, Date.now());
  }

  counted(companyId: string, fragment: string): void {
    const key = JSON.stringify([companyId, fragment]);
    if (Date.now() - (this.usedAt.get(key) ?? 0) < USE_MARK_INTERVAL_MS) return;
    this.remember(this.usedAt, key);
    this.db
      .query(`UPDATE customer_name_fragments SET used_at = now() WHERE company_id = $1 AND fragment = $2`, [companyId, fragment])
      .catch((error: unknown) => this.logger.warn(`name counts of ${JSON.stringify(fragment)} not marked used: ${String(error)}`));
  }

  /** Settles the registrations under way (tests wait for them; shutdown lets them finish before the pool closes). */
  async settled(): Promise<void> {
    // A settled registration may start the next one waiting.
    while (this.registering.size > 0) await Promise.all(this.registering.values());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.settled();
  }
}
