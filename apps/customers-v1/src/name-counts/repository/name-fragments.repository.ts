import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { NAME_COUNT_POLICY } from '../name-count-policy';

/** One cell's correction: the exact count from the rows minus what the cells hold, as one snapshot sees both. */
export interface CellAdjustment {
  status: string;
  id_bucket: string;
  modified_bucket: number;
  created_bucket: number;
  delta: number;
}

/** The transactions of the database that held an xid when asked (their writes may have missed a new fragment). */
export interface OpenWrites {
  pids: number[];
  xids: string[];
}

/**
 * The SQL of kept name counts (migrations 1766200000000 and 1766400000000): fragments and their
 * states, their cells, and what a registration waits for. Each statement is its own short
 * transaction; none takes a lock a writer of customers waits on.
 */
@Injectable()
export class NameFragmentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Fragments the company keeps or is building (retiring ones are on their way out). */
  async kept(companyId: string): Promise<number> {
    const [{ kept }] = await this.db.query<Array<{ kept: number }>>(
      `SELECT count(*)::int AS kept FROM customer_name_fragments WHERE company_id = $1 AND state <> 'retiring'`,
      [companyId],
    );
    return kept;
  }

  /** Inserts the fragment as `building` (the writers' triggers count into it from then on); undefined when it exists. */
  async insertBuilding(companyId: string, fragment: string): Promise<string | undefined> {
    const inserted = await this.db.query<Array<{ id: string }>>(
      `INSERT INTO customer_name_fragments AS f (company_id, fragment, state) VALUES ($1, $2, 'building')
       ON CONFLICT (company_id, fragment) DO NOTHING RETURNING f.id`,
      [companyId, fragment],
    );
    return inserted[0]?.id;
  }

  /** Every transaction of this database, but this statement's own, that holds an xid now. */
  async openWrites(): Promise<OpenWrites> {
    const open = await this.db.query<Array<{ pid: number; xid: string }>>(
      `SELECT pid, backend_xid::text AS xid FROM pg_stat_activity
       WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()`,
    );
    return { pids: open.map((o) => o.pid), xids: open.map((o) => o.xid) };
  }

  /** How many of `writes` are still the same open transactions. */
  async stillOpen(writes: OpenWrites): Promise<number> {
    const [{ left }] = await this.db.query<Array<{ left: number }>>(
      `SELECT count(*)::int AS left FROM pg_stat_activity a JOIN unnest($1::int[], $2::text[]) w (pid, xid) ON a.pid = w.pid AND a.backend_xid::text = w.xid`,
      [writes.pids, writes.xids],
    );
    return left;
  }

  /** One snapshot, read only: the corrections that make the fragment's cells exact. Takes no lock a writer waits on. */
  async adjustments(companyId: string, id: string): Promise<CellAdjustment[]> {
    const runner = this.db.createQueryRunner();
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await runner.query(`SET LOCAL statement_timeout = '${NAME_COUNT_POLICY.backfillTimeout}'`);
      const rows = (await runner.query(`SELECT * FROM customer_name_fragment_adjustments($1, $2)`, [companyId, id])) as CellAdjustment[];
      await runner.query('COMMIT');
      return rows;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** Adds corrections to the cells, in the triggers' key order, so that it and a write cannot wait on each other in a circle. */
  async addToCells(companyId: string, id: string, rows: CellAdjustment[]): Promise<void> {
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

  /** Reads use the fragment's cells from now on. */
  async markReady(id: string): Promise<void> {
    await this.db.query(`UPDATE customer_name_fragments SET state = 'ready', used_at = now() WHERE id = $1 AND state = 'building'`, [id]);
  }

  /** The company's ready fragments beyond the `keep` most recently used. */
  async leastRecentlyUsed(companyId: string, keep: number): Promise<string[]> {
    const rows = await this.db.query<Array<{ id: string }>>(
      `SELECT id FROM customer_name_fragments WHERE company_id = $1 AND state = 'ready' ORDER BY used_at DESC, id DESC OFFSET $2`,
      [companyId, keep],
    );
    return rows.map((r) => r.id);
  }

  /** The fragment, if a registration that died left it `building` (older than `abandonedAfter`). */
  async abandoned(companyId: string, fragment: string): Promise<string[]> {
    const rows = await this.db.query<Array<{ id: string }>>(
      `SELECT id FROM customer_name_fragments WHERE company_id = $1 AND fragment = $2 AND state = 'building' AND used_at < now() - interval '${NAME_COUNT_POLICY.abandonedAfter}'`,
      [companyId, fragment],
    );
    return rows.map((r) => r.id);
  }

  /** Marks fragments `retiring`: from the commit on, no new statement touches their cells. */
  async markRetiring(ids: string[]): Promise<void> {
    await this.db.query(`UPDATE customer_name_fragments SET state = 'retiring' WHERE id = ANY($1::bigint[])`, [ids]);
  }

  /** The company's `retiring` fragments (this drop's, and any an earlier one left). */
  async retiring(companyId: string): Promise<string[]> {
    const rows = await this.db.query<Array<{ id: string }>>(`SELECT id FROM customer_name_fragments WHERE company_id = $1 AND state = 'retiring'`, [companyId]);
    return rows.map((r) => r.id);
  }

  /** Deletes retiring fragments with their cells (the cascade). */
  async deleteRetiring(ids: string[]): Promise<void> {
    await this.db.query(`DELETE FROM customer_name_fragments WHERE id = ANY($1::bigint[]) AND state = 'retiring'`, [ids]);
  }

  /** Marks a fragment used now (eviction drops the least recently used). */
  async markUsed(companyId: string, fragment: string): Promise<void> {
    await this.db.query(`UPDATE customer_name_fragments SET used_at = now() WHERE company_id = $1 AND fragment = $2`, [companyId, fragment]);
  }
}
