import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { queryRows } from '@erp/database';
import { NAME_COUNT_POLICY } from '../name-count-policy';

const LEASE = `now() + make_interval(secs => $3::float8 / 1000)`;

/**
 * The per-company limits of name-count registration, kept in the database so that they hold
 * across replicas (migration 1766950000000): N replicas register no more than one. Every
 * statement stands alone (no session state, no lock held between statements), so they work
 * behind a transaction-mode pooler.
 *
 * - `customer_name_registrations`, a row per company: who registers now (a claim with a lease,
 *   renewed while it works, lapsing if its replica dies) and when it last replaced a kept fragment.
 * - `customer_name_retries`: fragments not to be tried again before `not_before`.
 */
@Injectable()
export class NameRegistrationLimits {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The company's registration claim, or undefined while another registration (in any replica) holds it. */
  async claim(companyId: string): Promise<RegistrationClaim | undefined> {
    const holder = randomUUID();
    const claimed = await queryRows(
      this.db,
      `INSERT INTO customer_name_registrations AS r (company_id, claimed_by, claimed_until) VALUES ($1, $2, ${LEASE})
       ON CONFLICT (company_id) DO UPDATE SET claimed_by = EXCLUDED.claimed_by, claimed_until = EXCLUDED.claimed_until
         WHERE r.claimed_until IS NULL OR r.claimed_until < now()
       RETURNING 1`,
      [companyId, holder, NAME_COUNT_POLICY.claimLeaseMs],
    );
    return claimed.length === 0 ? undefined : new RegistrationClaim(this.db, companyId, holder);
  }

  /** Whether the fragment may be tried now (no deferral of it is running). */
  async retryDue(companyId: string, fragment: string): Promise<boolean> {
    const deferred = await this.db.query<unknown[]>(
      `SELECT 1 FROM customer_name_retries WHERE company_id = $1 AND fragment = $2 AND not_before > now()`,
      [companyId, fragment],
    );
    return deferred.length === 0;
  }

  /** The fragment is not tried again for `ms`; the company's lapsed deferrals are forgotten on the way. */
  async deferRetry(companyId: string, fragment: string, ms: number): Promise<void> {
    await this.db.query(
      `WITH lapsed AS (DELETE FROM customer_name_retries WHERE company_id = $1 AND fragment <> $2 AND not_before <= now())
       INSERT INTO customer_name_retries AS r (company_id, fragment, not_before) VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
       ON CONFLICT (company_id, fragment) DO UPDATE SET not_before = EXCLUDED.not_before`,
      [companyId, fragment, ms],
    );
  }
}

/** A held registration claim of one company: renewed while the registration works, released at its end. */
export class RegistrationClaim {
  private renewedAt = Date.now();

  constructor(
    private readonly db: DataSource,
    readonly companyId: string,
    private readonly holder: string,
  ) {}

  /** Renews the lease once a third of it has passed; throws if the claim lapsed and another registration took it. */
  async keep(): Promise<void> {
    if (Date.now() - this.renewedAt < NAME_COUNT_POLICY.claimLeaseMs / 3) return;
    const renewed = await queryRows(
      this.db,
      `UPDATE customer_name_registrations SET claimed_until = ${LEASE} WHERE company_id = $1 AND claimed_by = $2 RETURNING 1`,
      [this.companyId, this.holder, NAME_COUNT_POLICY.claimLeaseMs],
    );
    if (renewed.length === 0) throw new Error(`the name-count registration claim of company ${this.companyId} lapsed and was taken over`);
    this.renewedAt = Date.now();
  }

  /** Whether a new fragment may replace a kept one now: none did in the last `intervalMs`, in any replica. */
  async replacementDue(intervalMs: number): Promise<boolean> {
    const [row] = await this.db.query<Array<{ due: boolean }>>(
      `SELECT replaced_at IS NULL OR replaced_at <= now() - make_interval(secs => $2::float8 / 1000) AS due
       FROM customer_name_registrations WHERE company_id = $1`,
      [this.companyId, intervalMs],
    );
    return row?.due !== false;
  }

  /** Records that this registration replaces a kept fragment (the next may only after the interval). */
  async stampReplacement(): Promise<void> {
    await this.db.query(`UPDATE customer_name_registrations SET replaced_at = now() WHERE company_id = $1 AND claimed_by = $2`, [this.companyId, this.holder]);
  }

  /** Frees the company for its next registration (a lapsed lease does the same if this replica died). */
  async release(): Promise<void> {
    await this.db.query(
      `UPDATE customer_name_registrations SET claimed_by = NULL, claimed_until = NULL WHERE company_id = $1 AND claimed_by = $2`,
      [this.companyId, this.holder],
    );
  }
}
