import pg from 'pg';
import { runAsCompany, transactionScopedPg } from '@erp/database';
import { beginWithOneSetting, loneStatementWithOneSetting } from './one-setting-floor';

export interface BindingCostOptions {
  /** A database URL on the server to measure (any database: only `SELECT`s run). */
  databaseUrl: string;
  /** Operations per round and variant. */
  operations: number;
  /** Rounds; the variants alternate within each, and the median round counts. */
  rounds: number;
}

export interface VariantCost {
  /** Wall time per operation, median of the rounds, in µs. */
  wallMicros: number;
  /** This process's CPU per operation (user + system), median of the rounds, in µs. */
  cpuMicros: number;
}

export type BindingCostResult = Record<string, VariantCost>;

/** The variant that sends one setting per transaction and nothing else. */
export const ONE_SETTING_VARIANT = 'one setting per transaction, nothing else (floor of binding)';

type Pool = pg.Pool;
type Operation = (pool: Pool, i: number) => Promise<unknown>;
type Operations = Record<'lone statement' | 'transaction of 2', Operation>;

/** A transaction of two statements, opened by `begin`. */
const transactionOf2 =
  (begin: (client: pg.PoolClient) => Promise<unknown>): Operation =>
  async (pool, i) => {
    const client = await pool.connect();
    try {
      await begin(client);
      await client.query('SELECT $1::int AS n', [i]);
      await client.query('SELECT $1::int AS n', [i + 1]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };

/** A lone parameterised statement, and a transaction of two, as the services send them. */
const OPERATIONS: Operations = {
  'lone statement': (pool, i) => pool.query('SELECT $1::int AS n', [i]),
  'transaction of 2': transactionOf2((client) => client.query('BEGIN')),
};

/** The same, each transaction with one setting and nothing else: the floor of binding per transaction. */
const ONE_SETTING_OPERATIONS: Operations = {
  'lone statement': (pool, i) => loneStatementWithOneSetting(pool, 'SELECT $1::int AS n', [i]),
  'transaction of 2': transactionOf2(beginWithOneSetting),
};

/**
 * What the transaction-scoped binding (issue 28) costs per database operation: the same statements
 * through pg's own Pool (the floor: no settings at all, as before issue 28 for services without
 * row-level security), through `transactionScopedPg`'s pool of a service without row-level security
 * (timeouts only) and of one with it in a company scope (timeouts, role and company), one
 * connection each, on the same server, alternating, in one run.
 */
export async function runBindingCostBench(options: BindingCostOptions): Promise<BindingCostResult> {
  const timeouts = { statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 };
  // Row-level security's role: the connecting user itself, so that no role need exist for the bench.
  const user = decodeURIComponent(new URL(options.databaseUrl).username || 'postgres');
  const plain = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
  const scoped = new (transactionScopedPg(timeouts).Pool)({ connectionString: options.databaseUrl, max: 1 });
  const tenant = new (transactionScopedPg({ ...timeouts, tenantRole: user }).Pool)({ connectionString: options.databaseUrl, max: 1 });
  const oneSetting = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
  const pools = [plain, oneSetting, scoped, tenant];
  const unscoped = (work: () => Promise<void>) => work();
  const variants: Array<[string, Pool, (work: () => Promise<void>) => Promise<void>, Operations]> = [
    ['pg Pool (floor)', plain, unscoped, OPERATIONS],
    [ONE_SETTING_VARIANT, oneSetting, unscoped, ONE_SETTING_OPERATIONS],
    ['scoped, no row-level security', scoped, unscoped, OPERATIONS],
    ['scoped with row-level security, company scope', tenant, (work) => runAsCompany('1000001', work), OPERATIONS],
  ];
  const samples = new Map<string, Array<{ wall: number; cpu: number }>>();
  try {
    // Warm-up: connections opened, code paths compiled.
    for (const [, pool, scope, operations] of variants) for (const op of Object.values(operations)) await scope(async () => void (await op(pool, 0)));
    for (let round = 0; round < options.rounds; round++) {
      for (const opName of Object.keys(OPERATIONS) as Array<keyof Operations>) {
        for (const [variant, pool, scope, operations] of variants) {
          const op = operations[opName];
          const cpuStart = process.cpuUsage();
          const start = process.hrtime.bigint();
          await scope(async () => {
            for (let i = 0; i < options.operations; i++) await op(pool, i);
          });
          const wall = Number(process.hrtime.bigint() - start) / 1_000 / options.operations;
          const cpuUsed = process.cpuUsage(cpuStart);
          const cpu = (cpuUsed.user + cpuUsed.system) / options.operations;
          const key = `${opName}: ${variant}`;
          samples.set(key, [...(samples.get(key) ?? []), { wall, cpu }]);
        }
      }
    }
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
  }
  return Object.fromEntries(
    [...samples].map(([key, values]) => [key, { wallMicros: median(values.map((v) => v.wall)), cpuMicros: median(values.map((v) => v.cpu)) }]),
  );
}

/**
 * The result as a markdown table, with each variant's ratio to pg's Pool (the floor) and, in wall
 * time, to the one-setting floor of its operation (what binding per transaction costs at least).
 */
export function bindingCostTable(result: BindingCostResult): string {
  const lines = [
    '| operation: variant | wall µs/op | CPU µs/op | wall / floor | CPU / floor | wall / one-setting floor |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const [key, cost] of Object.entries(result)) {
    const operation = key.split(':')[0];
    const floor = result[`${operation}: pg Pool (floor)`];
    const oneSetting = result[`${operation}: ${ONE_SETTING_VARIANT}`];
    const ratio = (value: number, base?: number) => (base ? `${(value / base).toFixed(2)}×` : '–');
    lines.push(
      `| ${key} | ${cost.wallMicros.toFixed(0)} | ${cost.cpuMicros.toFixed(0)} | ${ratio(cost.wallMicros, floor?.wallMicros)} | ` +
        `${ratio(cost.cpuMicros, floor?.cpuMicros)} | ${ratio(cost.wallMicros, oneSetting?.wallMicros)} |`,
    );
  }
  return lines.join('\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
