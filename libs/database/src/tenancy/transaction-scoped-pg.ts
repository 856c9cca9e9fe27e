import pg, { type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';
import { preparedStatementName } from '../sql/prepared-statement';
import { isLostPreparedStatement, MAX_PREPARED_LOSSES, warnPreparedStatementsLost } from './prepared-statement-losses';
import { currentTenantScope } from './tenant-scope';
import { type SettingsStatements, settingsStatementsFor, type TransactionSettings } from './transaction-settings-statement';
import { WithTransactionSettings } from './with-transaction-settings';

export type { TransactionSettings };

export interface DriverSettings extends TransactionSettings {
  /**
   * A URL of a real server session, for what a transaction-mode pooler cannot carry (LISTEN).
   * Absent: the DataSource's own URL.
   */
  sessionUrl?: string;
}

/** Marks the pg module a DataSource was given, with its settings (start-up checks read them). */
export const DRIVER_SETTINGS = Symbol.for('@erp/database:driver-settings');

export type TransactionScopedPg = typeof pg & { [DRIVER_SETTINGS]: DriverSettings };

/** Scopes whose settings statement a pool keeps built (companies, and the service scope). */
const MAX_CACHED_SETTINGS = 10_000;

const OPENS_TRANSACTION = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
// `ROLLBACK TO SAVEPOINT` stays inside the transaction; everything else here ends it.
const ENDS_TRANSACTION = /^\s*(?:COMMIT|END|ABORT)\b|^\s*ROLLBACK\b(?!(?:\s+(?:WORK|TRANSACTION))?\s+TO\b)/i;
// What PostgreSQL refuses inside a transaction block: these run as sent, in the service scope only.
const OUTSIDE_TRANSACTION = /^\s*(?:DISCARD|VACUUM|CHECKPOINT|(?:CREATE|DROP)\s+DATABASE|ALTER\s+SYSTEM|(?:CREATE|DROP)\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY|REINDEX\b.*\bCONCURRENTLY)\b/is;

type QueryCallback = (error: Error | null, result?: QueryResult) => void;

/** Named statements one connection keeps at most; further marked texts run unnamed. */
const MAX_PREPARED_PER_CONNECTION = 200;
/**
 * The `pg` module for TypeORM's documented `driver` option, whose pool's connections keep no
 * state between transactions, so that they work the same straight against PostgreSQL and behind
 * a transaction-mode pooler (PgBouncer `pool_mode=transaction`, managed poolers), where each
 * transaction may run on a different server session that someone else used before.
 *
 * - Every transaction's first statement sets, with `is_local = true`, its timeouts, its role and
 *   its company (`app.company_id`) from the tenant scope of the async call chain that opens it
 *   (`runAsCompany` / `runAsService`). It travels in the same message as the `BEGIN` (a simple-query
 *   message of two statements), so it costs no round trip.
 * - A statement sent outside a transaction runs with the same settings, sent before it in the same
 *   round trip: with it in one simple-query message (an implicit transaction block) when it has no
 *   parameters, else in one extended-protocol exchange (with-transaction-settings.ts) whose Sync
 *   ends both. No statement ever runs unbound or without its timeout, and none costs a round trip
 *   more than before (BENCHMARKS.md, "Transaction-scoped binding"), but the first of each shape of
 *   scope on a connection, which prepares the settings statement.
 * - A lone statement marked `prepared()` runs as a named prepared statement, planned once per
 *   connection (off with `preparedStatements: false`); a session that turns out not to hold it
 *   (isLostPreparedStatement) gets it prepared again (libs/database README, "Prepared statements").
 * - A cursor (pg-query-stream) must be opened inside a transaction; outside one it is refused.
 * - Nothing is set at connection start (no startup parameters: PgBouncer refuses unknown ones,
 *   and a session setting would leak to whoever gets the server session next).
 *
 * Why not a library: none binds per transaction through pg's public interface. This overrides
 * `Client#query` (public) and passes `Client` to pg-pool's documented constructor option.
 */
export function transactionScopedPg(settings: DriverSettings): TransactionScopedPg {
  const Client = transactionScopedClient(settings);
  class TransactionScopedPool extends pg.Pool {
    constructor(options?: pg.PoolConfig) {
      super({ ...options, Client });
    }
  }
  return Object.assign(Object.create(pg) as typeof pg, pg, {
    Pool: TransactionScopedPool,
    Client,
    [DRIVER_SETTINGS]: settings,
  });
}

/** The pg Client class of `transactionScopedPg`, for a pool or a session of one's own (the outbox relay). */
export function transactionScopedClient(wanted: TransactionSettings): typeof pg.Client {
  // Each scope's settings statement, shared by the clients of this class (one settings object).
  const settingsByScope = new Map<string, SettingsStatements>();
  // The warning that the pool's connections stop preparing, once for all of them.
  let lossWarned = false;
  return class TransactionScopedClient extends pg.Client {
    private transactionOpen = false;
    /** Marked statements known to be prepared on this connection's server session. */
    private readonly preparedNames = new Set<string>();
    /** Times this connection's prepared statements were found gone; part of their names, so pg parses anew. */
    private preparedLosses = 0;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // pg emits 'error' when the server ends a session, and pg-pool listens only while the
      // client is idle: a session lost between checkout and its user's own listener (the settings
      // of a BEGIN sent at once, the outbox relay's connection) was an unhandled 'error' that
      // killed the process. The failure still rejects the query in flight, and pg-pool discards a
      // client that is no longer queryable when it comes back.
      this.on('error', () => undefined);
    }

    // pg's own overloads (a cursor; text or config with values apart or inside; a callback), then
    // the one implementation behind them.
    override query<T extends pg.Submittable>(queryStream: T): T;
    override query<R extends unknown[] = unknown[], I = unknown[]>(queryConfig: pg.QueryArrayConfig<I>, values?: pg.QueryConfigValues<I>): Promise<pg.QueryArrayResult<R>>;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown[]>(queryConfig: QueryConfig<I>): Promise<QueryResult<R>>;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown[]>(
      queryTextOrConfig: string | QueryConfig<I>,
      values?: pg.QueryConfigValues<I>,
    ): Promise<QueryResult<R>>;
    override query<R extends unknown[] = unknown[], I = unknown[]>(queryConfig: pg.QueryArrayConfig<I>, callback: (err: Error, result: pg.QueryArrayResult<R>) => void): void;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown[]>(
      queryTextOrConfig: string | QueryConfig<I>,
      callback: (err: Error, result: QueryResult<R>) => void,
    ): void;
    override query<R extends QueryResultRow = QueryResultRow, I = unknown[]>(
      queryText: string,
      values: pg.QueryConfigValues<I>,
      callback: (err: Error, result: QueryResult<R>) => void,
    ): void;
    override query(...args: unknown[]): unknown {
      const [query] = args;
      if (isSubmittable(query)) {
        if (!this.transactionOpen) throw new Error('a cursor (streamed query) must be opened inside a transaction: BEGIN first');
        return super.query(query);
      }
      const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as QueryCallback) : undefined;
      // Values given apart, or inside a config object (`{ text, values }`): one place from here on.
      const config: QueryConfig = typeof query === 'string' ? { text: query } : { ...(query as QueryConfig) };
      const values = (args[1] as unknown[] | undefined) ?? config.values;
      delete config.values;
      const result = this.run(config, values);
      if (!callback) return result;
      result.then(
        (value) => callback(null, value),
        (error: Error) => callback(error),
      );
      return undefined;
    }

    private async run(query: QueryConfig, values?: unknown[]): Promise<QueryResult> {
      const { text } = query;
      if (OPENS_TRANSACTION.test(text)) return this.open(text, values);
      if (this.transactionOpen) {
        try {
          return await super.query(query, values);
        } finally {
          if (ENDS_TRANSACTION.test(text)) this.transactionOpen = false;
        }
      }
      // A stray COMMIT or ROLLBACK only draws a warning from the server.
      if (ENDS_TRANSACTION.test(text)) return super.query(query, values);
      if (OUTSIDE_TRANSACTION.test(text)) {
        if (currentTenantScope().kind === 'company') throw new Error('a statement that cannot run in a transaction is refused in a company scope');
        return super.query(query, values);
      }
      return this.lone(query, values);
    }

    /**
     * A statement outside any transaction. If the session's prepared statements are not the ones
     * this connection made (isLostPreparedStatement), nothing ran: every name changes, so each is
     * prepared again, and the statement is sent once more. After MAX_PREPARED_LOSSES the
     * connection prepares nothing.
     */
    private async lone(query: QueryConfig, values?: unknown[]): Promise<QueryResult> {
      try {
        const name = query.name === undefined && values && values.length > 0 ? this.preparedNameFor(query.text) : undefined;
        return await (name && values ? this.standalonePrepared(query, values, name) : this.standalone(query, values));
      } catch (error) {
        if (!isLostPreparedStatement(error) || this.preparedLosses >= MAX_PREPARED_LOSSES) throw error;
        this.preparedNames.clear();
        this.preparedLosses += 1;
        if (this.preparedLosses === MAX_PREPARED_LOSSES && !lossWarned) {
          lossWarned = true;
          warnPreparedStatementsLost();
        }
        return this.lone(query, values);
      }
    }

    /**
     * The name a marked statement (`prepared()`) runs under on this connection, or undefined to
     * run it unnamed: switched off, not marked, or the connection keeps as many as it may. Only
     * lone statements are named: one whose prepared statement was lost can be sent again, which a
     * statement inside a transaction cannot (the error ends the transaction).
     */
    private preparedNameFor(text: string): string | undefined {
      if (wanted.preparedStatements === false || this.preparedLosses >= MAX_PREPARED_LOSSES) return undefined;
      const base = preparedStatementName(text);
      if (base === undefined) return undefined;
      const name = this.preparedLosses === 0 ? base : `${base}_${this.preparedLosses}`;
      return this.preparedNames.has(name) || this.preparedNames.size < MAX_PREPARED_PER_CONNECTION ? name : undefined;
    }

    /**
     * A marked lone statement as a named prepared statement. The first time on this connection it
     * is parsed inside a transaction of its own (BEGIN with the settings, the statement, COMMIT:
     * pg's own Query parses it and records it); afterwards it goes with its settings in one
     * round trip, Bind and Execute only.
     */
    private standalonePrepared(query: QueryConfig, values: unknown[], name: string): Promise<QueryResult> {
      return this.preparedNames.has(name) ? this.standalone({ ...query, name }, values) : this.prepareAndRun(query, values, name);
    }

    /** A marked statement's first use on this connection, in a transaction of its own. */
    private async prepareAndRun(query: QueryConfig, values: unknown[], name: string): Promise<QueryResult> {
      await this.open('BEGIN');
      try {
        const result = await super.query({ ...query, name }, values);
        this.preparedNames.add(name);
        await super.query('COMMIT');
        return result;
      } catch (error) {
        await super.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        this.transactionOpen = false;
      }
    }

    /**
     * A statement outside any transaction, with its transaction's settings in the same round trip:
     * without parameters, one simple-query message of both (an implicit transaction block); with
     * parameters, one extended-protocol exchange (WithTransactionSettings).
     */
    private async standalone(query: QueryConfig, values?: unknown[]): Promise<QueryResult> {
      const settings = this.scopeSettings();
      if (!values || values.length === 0) {
        const results = (await super.query({ ...query, text: `${settings.literal};\n${query.text}` })) as unknown as QueryResult[];
        const own = results.slice(1);
        return (own.length === 1 ? own[0] : own) as QueryResult;
      }
      const name = await this.preparedSettings(settings);
      return new Promise<QueryResult>((resolve, reject) => {
        // `queryMode: 'extended'` (pg's QueryConfig, absent from @types/pg): the settings' messages precede it.
        const extended = { ...query, values, queryMode: 'extended' } as QueryConfig;
        const statement = new pg.Query(extended, undefined, (error: Error | undefined, result: QueryResult) =>
          error ? reject(error) : resolve(result),
        );
        super.query(new WithTransactionSettings({ ...settings.parameterised, name }, statement));
      });
    }

    /**
     * The name of the scope's parameterised settings statement, prepared on this connection by a
     * round trip of its own the first time (pg's own Query parses and records it; it runs in an
     * implicit transaction, so what it sets ends there), or undefined to send it unnamed.
     */
    private async preparedSettings(settings: SettingsStatements): Promise<string | undefined> {
      const name = this.preparedNameFor(settings.parameterised.text);
      if (name === undefined || this.preparedNames.has(name)) return name;
      await super.query({ ...settings.parameterised, name });
      this.preparedNames.add(name);
      return name;
    }

    /** Sends the opening statement and the transaction's settings in one message. */
    private async open(begin: string, values?: unknown[]): Promise<QueryResult> {
      if (values && values.length > 0) throw new Error('BEGIN takes no parameters');
      try {
        const results = (await super.query(`${begin};\n${this.scopeSettings().literal}`)) as unknown as QueryResult[];
        this.transactionOpen = true;
        return results[0] as QueryResult;
      } catch (error) {
        // Opened, then the settings failed: end the aborted block rather than leave it open.
        await super.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }

    private scopeSettings(): SettingsStatements {
      const scope = currentTenantScope();
      // Without the tenant wall every scope's statement is the same (the timeouts only).
      const key = !wanted.tenantRole ? 'timeouts' : scope.kind === 'company' ? `company:${scope.companyId}` : scope.kind;
      let statement = settingsByScope.get(key);
      if (statement === undefined) {
        statement = settingsStatementsFor(wanted, scope, this);
        // Built once per scope, not per statement; bounded, for a service that sees many companies.
        if (settingsByScope.size >= MAX_CACHED_SETTINGS) settingsByScope.clear();
        settingsByScope.set(key, statement);
      }
      return statement;
    }
  };
}

function isSubmittable(query: unknown): query is pg.Submittable {
  return typeof query === 'object' && query !== null && typeof (query as { submit?: unknown }).submit === 'function';
}
