/**
 * What the migrations-under-load bench knows of one service's data: which tables grow with the
 * business and how to fill them to production size right after the migration that creates them,
 * which tables stay small (so the bench can refuse a table it was never told about), and the writes
 * the service makes while a migration runs.
 */
export interface ServiceWorkload {
  /** The catalog name (`SERVICES` of @erp/dev). */
  service: string;
  /**
   * How the service binds its write transactions: `company` (request traffic, as `<db>_app` in the
   * company's scope, through the tenant views or under the row-level security policies once the
   * migrations have created the role), or `service` (workers and event intake, as the owner).
   */
  writesAs: 'company' | 'service';
  /** Tables that grow with the business, in fill order (a line table after its header table). */
  fills: TableFill[];
  /** Every other table, with why it stays small: derived counts, per-company settings, bookkeeping. */
  bounded: Record<string, string>;
  /** The service's writes, weighted; each runs when the tables it `needs` exist. */
  writes: WriteKind[];
}

export interface TableFill {
  table: string;
  /** Tables that must exist (and be filled) first. */
  needs?: string[];
  /** Statements that fill the table to production size for `rows`, in the schema its creating migration left. */
  sql(rows: number): string[];
}

export interface WriteStatement {
  text: string;
  values?: unknown[];
}

/** What a write may ask about the moment it runs in. */
export interface WriteContext {
  /** Rows the headers were filled with (`--rows`); existing header ids are 1..rows. */
  rows: number;
  /** An integer in [1, max], seeded. */
  random(max: number): number;
  /** An id no row has yet (new rows: numbers, order ids), unique for the service's run. */
  nextId(): number;
  /** Whether `table` or `table.column` exists now. */
  has(name: string): boolean;
}

export interface WriteKind {
  name: string;
  weight: number;
  /** Tables (or `table.column`) the write needs; it is left out while any is missing. */
  needs: string[];
  /** The company whose scope the statements run in, and the statements of one transaction. */
  build(context: WriteContext): { company: string; statements: WriteStatement[] };
}

/** Rows of every filled table belong to one of three companies, by id: the writes find them again. */
export const COMPANIES = 3;
export const companyOf = (id: number): string => `migload-${id % COMPANIES}`;
/** The same in SQL, over an integer expression. */
export const companySql = (id: string): string => `'migload-' || (${id}) % ${COMPANIES}`;

/** A published event of the outbox, as `Outbox.add` inserts it in the service's write transaction. */
export function outboxInsert(context: WriteContext, eventType: string, key: string): WriteStatement[] {
  if (!context.has('outbox')) return [];
  return [
    {
      text: `INSERT INTO outbox (id, topic, message_key, event_type, payload) VALUES (gen_random_uuid(), $1, $2, $3, $4::jsonb)`,
      values: ['migload.events', key, eventType, JSON.stringify({ key, at: new Date().toISOString() })],
    },
  ];
}
