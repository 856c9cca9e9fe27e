import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { NameCountObserver } from '@erp/customers-queries';
import { CUSTOMER_SETTINGS, type CustomerSettings } from '../customer-settings';

/** A company's fragment is marked used at most this often (the mark only orders eviction). */
const USE_MARK_INTERVAL_MS = 10 * 60_000;
/** Bounds the memory of the marks and of the failed attempts; clearing them only means trying again. */
const MEMORY_MAX = 10_000;
/** A registration holds the company's writes while it backfills: never longer than this. */
const REGISTRATION_TIMEOUT = '5s';
/** After a registration that did not happen (no gap between writes, too slow, an error), the next try waits this long. */
const RETRY_AFTER_MS = 10 * 60_000;

/**
 * Keeps the company's name counts (migration 1766200000000): a fragment whose exact count found
 * at least `minMatches` customers is registered after the response, in the background, so that
 * its next requests read its cells; a registered fragment is marked used now and then, and a
 * company keeps its `perCompany` most recently used ones. A registration that did not happen (no
 * gap between the company's writes within 2 s, a backfill over 5 s) costs only speed: such a
 * request tries again 10 minutes later.
 */
@Injectable()
export class CustomerNameCounts implements NameCountObserver, BeforeApplicationShutdown {
  private readonly logger = new Logger(CustomerNameCounts.name);
  private readonly registering = new Map<string, Promise<void>>();
  private readonly usedAt = new Map<string, number>();
  private readonly failedAt = new Map<string, number>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(CUSTOMER_SETTINGS) private readonly settings: CustomerSettings,
  ) {}

  notCounted(companyId: string, fragment: string, matches: number): void {
    const { minMatches, perCompany } = this.settings.nameCounts;
    const key = JSON.stringify([companyId, fragment]);
    if (matches < minMatches || perCompany === 0 || this.registering.has(key)) return;
    if (Date.now() - (this.failedAt.get(key) ?? 0) < RETRY_AFTER_MS) return;
    const registration = this.register(companyId, fragment, perCompany).then(
      (done) => {
        if (!done) this.remember(this.failedAt, key);
      },
      (error: unknown) => {
        this.remember(this.failedAt, key);
        this.logger.warn(`name counts of ${JSON.stringify(fragment)} not registered: ${String(error)}`);
      },
    );
    this.registering.set(
      key,
      registration.finally(() => this.registering.delete(key)),
    );
  }

  /** True when registered now; false when it was already, or the lock found no gap (see the migration). */
  private register(companyId: string, fragment: string, perCompany: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL statement_timeout = '${REGISTRATION_TIMEOUT}'`);
      const [row] = await tx.query<Array<{ registered: boolean }>>(
        `SELECT register_customer_name_fragment($1, $2, $3) AS registered`,
        [companyId, fragment, perCompany],
      );
      return row.registered;
    });
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
      .query(`UPDATE customer_name_fragments SET used_at = now() WHERE company_id = $1 AND fragment = $2`, [
        companyId,
        fragment,
      ])
      .catch((error: unknown) =>
        this.logger.warn(`name counts of ${JSON.stringify(fragment)} not marked used: ${String(error)}`),
      );
  }

  /** Settles the registrations under way (tests wait for them; shutdown lets them finish before the pool closes). */
  async settled(): Promise<void> {
    await Promise.all(this.registering.values());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }
}
