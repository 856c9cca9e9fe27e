import type pg from 'pg';
import type { TenantScope } from './tenant-scope';
import { prepared } from '../sql/prepared-statement';
import { COMPANY_SETTING } from './tenant-role';

/** What every transaction of a service's pool sets as its first statement. */
export interface TransactionSettings {
  /**
   * The role a company scope runs as (`<db>_app`, behind the tenant views); absent for a service
   * without the wall, whose company scopes run as the connecting role, like its service scope.
   */
  tenantRole?: string;
  /**
   * The role the service scope runs as (`<db>_service`: the service's tables, no DDL), set with
   * `tenantRole`. The connecting login itself reads nothing, so a company scope that resets its
   * role does not leave the wall (docs/platform-teams.md, "Database logins").
   */
  serviceRole?: string;
  /** `statement_timeout` of every transaction, in ms; 0 for none. */
  statementTimeoutMs: number;
  /** `idle_in_transaction_session_timeout` of every transaction, in ms; 0 for none. */
  idleInTransactionTimeoutMs: number;
  /**
   * Whether a lone statement marked `prepared()` runs as a named prepared statement, parsed and
   * planned once per connection (DATABASE_PREPARED_STATEMENTS). Default true. Behind a
   * transaction-mode pooler it needs one that keeps protocol-level prepared statements (PgBouncer
   * 1.21 or later with `max_prepared_statements` above 0).
   */
  preparedStatements?: boolean;
}

/** A scope's settings statement in both forms its client sends. */
export interface SettingsStatements {
  /** With its values written in: sent in one simple-query message with `BEGIN`, or before a statement without parameters. */
  literal: string;
  /**
   * With its values as parameters, marked `prepared()`: one text per shape of scope (timeouts
   * only; the service's; a company's), so that a connection prepares it once and then sends
   * only Bind and Execute before each lone statement with parameters.
   */
  parameterised: { text: string; values: string[] };
}

/**
 * The statement that opens every transaction (and goes before every lone statement): its
 * timeouts, and with the tenant wall its role, company and search path, each `set_config(...,
 * true)` so that it ends with the transaction. Values are quoted by the connection's own pg
 * escaping (`escapeLiteral`, `escapeIdentifier`).
 */
export function settingsStatementsFor(wanted: TransactionSettings, scope: TenantScope, quote: Pick<pg.Client, 'escapeLiteral' | 'escapeIdentifier'>): SettingsStatements {
  const settings: Array<[name: string, value: string]> = [
    ['statement_timeout', String(wanted.statementTimeoutMs)],
    ['idle_in_transaction_session_timeout', String(wanted.idleInTransactionTimeoutMs)],
  ];
  // Role, company and path only where the tenant wall reads them: a service without it has no
  // `<db>_app` role, and its statements then cost three settings less.
  if (wanted.tenantRole) {
    settings.push(['role', scope.kind === 'company' ? wanted.tenantRole : (wanted.serviceRole ?? 'none')]);
    settings.push([COMPANY_SETTING, scope.kind === 'company' ? scope.companyId : '']);
    // The tenant views (enableTenantViewsV1) live in the schema named as the role, first on
    // the path, so a company scope's unqualified names are the views; the role has no
    // privilege on the tables behind them. The service scope keeps the session's path (the
    // tables).
    if (scope.kind === 'company') settings.push(['search_path', `${quote.escapeIdentifier(wanted.tenantRole)}, public`]);
  }
  const set = (name: string, value: string) => `set_config(${quote.escapeLiteral(name)}, ${value}, true)`;
  return {
    literal: `SELECT ${settings.map(([name, value]) => set(name, quote.escapeLiteral(value))).join(', ')}`,
    parameterised: {
      text: prepared(`SELECT ${settings.map(([name], i) => set(name, `$${i + 1}`)).join(', ')}`),
      values: settings.map(([, value]) => value),
    },
  };
}
