import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { DEFAULT_STATEMENT_TIMEOUT_MS, IDLE_IN_TRANSACTION_TIMEOUT_MS } from '@erp/database';
import type { WriteContext, WriteKind } from './workloads';

/** One write transaction: from BEGIN sent to COMMIT answered, the way a request waits for it. */
export interface WriteSample {
  kind: string;
  ms: number;
  /** SQLSTATE and message of a write that failed (a lock wait past the statement timeout, a schema it no longer fits). */
  error?: string;
}

export interface WriterOptions {
  kinds: WriteKind[];
  context: WriteContext;
  /** `<db>_app` when the service's writes run in a company's scope and the role exists; else as the owner. */
  companyRole?: string;
  /** Pause between the starts of two writes of one connection. */
  intervalMs: number;
  /**
   * Each write's `lock_timeout`: a write that waits longer than this for a lock (a migration's)
   * fails with 55P03, as PostgreSQL measures the wait. Unset: writes wait as long as they must.
   */
  lockTimeoutMs?: number;
  /** Picks a kind by weight (seeded). */
  pick(kinds: WriteKind[]): WriteKind;
}

/**
 * A service's writer connections (a couple, as a service's pool has a few busy ones), kept open for
 * the whole run: each migration starts them writing and stops them after.
 */
export class Writers {
  private constructor(private readonly clients: Client[]) {}

  static async open(url: string, connections: number): Promise<Writers> {
    const clients: Client[] = [];
    for (let i = 0; i < connections; i++) {
      const client = new Client({ connectionString: url, application_name: 'bench-migrations-writer' });
      await client.connect();
      clients.push(client);
    }
    return new Writers(clients);
  }

  /** Starts every connection writing; the returned function stops them and gives every write's sample. */
  start(options: WriterOptions): () => Promise<WriteSample[]> {
    if (options.kinds.length === 0) return async () => [];
    let running = true;
    const samples: WriteSample[] = [];
    const loops = this.clients.map(async (client) => {
      while (running) {
        const started = performance.now();
        samples.push(await writeOnce(client, options));
        const rest = options.intervalMs - (performance.now() - started);
        if (running && rest > 0) await sleep(rest);
      }
    });
    return async () => {
      running = false;
      await Promise.all(loops);
      return samples;
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.end().catch(() => undefined)));
  }
}

/**
 * One write as the service makes it: a transaction with the service's timeouts (and, in a company's
 * scope, its role, company and search path: the tenant views where they exist), the statements,
 * COMMIT. Timed whole, so a wait behind a migration's lock at any statement counts.
 */
async function writeOnce(client: Client, options: WriterOptions): Promise<WriteSample> {
  const kind = options.pick(options.kinds);
  const write = kind.build(options.context);
  const set = (name: string, value: string) => `set_config(${client.escapeLiteral(name)}, ${client.escapeLiteral(value)}, true)`;
  const settings = [set('statement_timeout', String(DEFAULT_STATEMENT_TIMEOUT_MS)), set('idle_in_transaction_session_timeout', String(IDLE_IN_TRANSACTION_TIMEOUT_MS))];
  if (options.lockTimeoutMs !== undefined) settings.push(set('lock_timeout', String(options.lockTimeoutMs)));
  if (options.companyRole) {
    settings.push(set('role', options.companyRole), set('app.company_id', write.company));
    settings.push(set('search_path', `${client.escapeIdentifier(options.companyRole)}, public`));
  }
  const started = performance.now();
  try {
    await client.query(`BEGIN; SELECT ${settings.join(', ')}`);
    for (const statement of write.statements) await client.query(statement.text, statement.values);
    await client.query('COMMIT');
    return { kind: kind.name, ms: performance.now() - started };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const { code, message } = error as { code?: string; message?: string };
    return { kind: kind.name, ms: performance.now() - started, error: `${code ?? '?'} ${message ?? String(error)}` };
  }
}
