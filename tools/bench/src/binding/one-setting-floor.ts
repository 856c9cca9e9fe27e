import pg from 'pg';
import { WithTransactionSettings } from '@erp/database';

/** The one setting: what a per-transaction binding could not do without (a statement's timeout). */
const SETTING = { text: `SELECT set_config('statement_timeout', $1, true)`, values: ['30000'] };
const SETTING_LITERAL = `SELECT set_config('statement_timeout', '30000', true)`;
const SETTING_NAME = 'bench_one_setting';
/** Clients on whose session the setting's statement is prepared. */
const preparedOn = new WeakSet<pg.PoolClient>();

/**
 * The least any per-transaction binding sends with a lone statement: one `set_config(..., true)`
 * before it in the same exchange, as a prepared statement's Bind and Execute (the way the scoped
 * pool sends its settings: WithTransactionSettings), and nothing else (no scope, no checks of the
 * text, no cache). The floor against which `bench:binding` reads the scoped pool's lone statement:
 * what is above it is the binding's own; what is between it and pg's Pool is the price of binding
 * per transaction at all (correct behind a transaction-mode pooler).
 */
export async function loneStatementWithOneSetting(pool: pg.Pool, text: string, values: unknown[]): Promise<pg.QueryResult> {
  const client = await pool.connect();
  try {
    if (!preparedOn.has(client)) {
      await client.query({ ...SETTING, name: SETTING_NAME });
      preparedOn.add(client);
    }
    return await new Promise<pg.QueryResult>((resolve, reject) => {
      // `queryMode: 'extended'` (pg's QueryConfig, absent from @types/pg), as the scoped pool sends it.
      const statement = new pg.Query({ text, values, queryMode: 'extended' } as pg.QueryConfig, undefined, (error: Error | undefined, result: pg.QueryResult) =>
        error ? reject(error) : resolve(result),
      );
      client.query(new WithTransactionSettings({ ...SETTING, name: SETTING_NAME }, statement));
    });
  } finally {
    client.release();
  }
}

/** The same floor for a transaction: the one setting in the simple-query message of its BEGIN. */
export async function beginWithOneSetting(client: pg.PoolClient): Promise<void> {
  await client.query(`BEGIN;\n${SETTING_LITERAL}`);
}
