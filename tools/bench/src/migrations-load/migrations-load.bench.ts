import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { type ClassReference, dropDatabase, ensureDatabase, migrationName, tenantRoleName } from '@erp/database';
import { SERVICES } from '@erp/dev';
import { previousRelease, type Release } from '@erp/release';
import { SeededRandom } from '../data/random';
import { type FilledTable, fillNewTables, readSchema, round, unclassifiedTables } from './fill-tables';
import { measureMigration, type MigrationFigure } from './measure-migration';
import { loadServiceMigrations, migrationTimestamp, releasedMigrations } from './service-migrations';
import { WORKLOADS, type ServiceWorkload, type WriteContext, type WriteKind } from './workloads';
import { Writers } from './writers';

export interface MigrationsLoadOptions {
  /** A PostgreSQL server URL; each service gets a database of its own there, dropped after. */
  serverUrl: string;
  rootDir: string;
  /** Rows of each table that grows with the business (lines: several per header). */
  rows: number;
  /** Catalog names; default every service with a database. */
  services?: string[];
  /** Measure the migrations added after the previous release (the others only applied), or all. */
  since: 'previous-release' | 'all';
  /** Writer connections per service (default 2) and the least time between the starts of two writes of one (default 20 ms: up to 100 writes a second, which leaves the 2-core machine to the migration). */
  writers?: number;
  writeIntervalMs?: number;
  /**
   * Give each write this `lock_timeout`, so that a write held behind a migration's lock longer
   * than the bound fails (55P03) as PostgreSQL measures the wait, whatever else slows the machine:
   * the test's measure. Unset (the bench's): writes wait, and their wall times are reported.
   */
  lockWaitBoundMs?: number;
  /** More migrations for a service, run after its own by timestamp (the test's bad fixture). */
  extraMigrations?: Record<string, ClassReference[]>;
  log: (line: string) => void;
}

export interface ServiceFigures {
  service: string;
  /** Why it was not run (no migration to measure), if it was not. */
  skipped?: string;
  filled: FilledTable[];
  migrations: MigrationFigure[];
  seconds: number;
}

export interface MigrationsLoadResult {
  rows: number;
  since: 'previous-release' | 'all';
  previousRelease: Pick<Release, 'version' | 'commit'>;
  postgres: string;
  startedAt: string;
  seconds: number;
  services: ServiceFigures[];
}

/**
 * Every migration of every service (or those since the previous release), each applied on its own
 * with `migrateDatabase` while a couple of connections write as the service does, on a fresh
 * database whose growing tables are filled to `rows` right after the migration that creates them
 * (docs/migrations.md; BENCHMARKS.md "Migrations under load").
 */
export async function runMigrationsLoadBench(options: MigrationsLoadOptions): Promise<MigrationsLoadResult> {
  const started = performance.now();
  const release = previousRelease();
  const names = options.services ?? SERVICES.filter((spec) => spec.database).map((spec) => spec.name);
  const services: ServiceFigures[] = [];
  for (const name of names) services.push(await runService(name, release, options));
  const admin = new Client({ connectionString: options.serverUrl });
  await admin.connect();
  const { rows } = await admin.query<{ version: string }>(`SELECT current_setting('server_version') AS version`).finally(() => admin.end());
  return {
    rows: options.rows,
    since: options.since,
    previousRelease: { version: release.version, commit: release.commit },
    postgres: rows[0].version,
    startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
    seconds: round((performance.now() - started) / 1000, 1),
    services,
  };
}

async function runService(name: string, release: Release, options: MigrationsLoadOptions): Promise<ServiceFigures> {
  const spec = SERVICES.find((service) => service.name === name);
  const workload = WORKLOADS[name];
  if (!spec?.database || !workload) throw new Error(`${name}: not a service with a database (known: ${Object.keys(WORKLOADS).join(', ')})`);
  const migrations = [...loadServiceMigrations(options.rootDir, spec.dir), ...(options.extraMigrations?.[name] ?? [])].sort(
    (a, b) => migrationTimestamp(a) - migrationTimestamp(b),
  );
  const released = releasedMigrations(options.rootDir, spec.dir, release.commit, migrations);
  const measured = (migration: ClassReference) => options.since === 'all' || !released.has(migration);
  if (!migrations.some(measured)) return { service: name, skipped: `no migration since ${release.version}`, filled: [], migrations: [], seconds: 0 };

  const started = performance.now();
  const database = `bench_migload_${name.replace(/-/g, '_')}_${process.pid}`;
  await dropDatabase(options.serverUrl, database);
  const url = await ensureDatabase(options.serverUrl, database);
  const admin = new Client({ connectionString: url, application_name: 'bench-migrations-fill' });
  await admin.connect();
  const writers = await Writers.open(url, options.writers ?? 2);
  const figures: ServiceFigures = { service: name, filled: [], migrations: [], seconds: 0 };
  try {
    const random = new SeededRandom(7);
    let nextId = options.rows;
    const filled = new Set<string>();
    for (let i = 0; i < migrations.length; i++) {
      const schema = await readSchema(admin);
      const context: WriteContext = { rows: options.rows, random: (max) => random.int(1, max), nextId: () => ++nextId, has: (table) => schema.has(table) };
      const kinds = measured(migrations[i]) ? workload.writes.filter((kind) => kind.needs.every((table) => schema.has(table))) : undefined;
      const figure = await measureMigration({
        url,
        migrations: migrations.slice(0, i + 1),
        released: released.has(migrations[i]),
        writers: kinds && {
          pool: writers,
          options: {
            kinds,
            context,
            companyRole: await companyRole(admin, workload, database),
            intervalMs: options.writeIntervalMs ?? 20,
            ...(options.lockWaitBoundMs === undefined ? {} : { lockTimeoutMs: options.lockWaitBoundMs }),
            pick: (from: WriteKind[]) => random.weighted(from.map((kind) => [kind, kind.weight] as const)),
          },
        },
        log: options.log,
      });
      figures.migrations.push(figure);
      if (figure.measured) options.log(`${name}: ${describe(figure)}`);
      figures.filled.push(...(await fillNewTables(admin, workload, filled, options.rows, migrationName(migrations[i]), options.log)));
    }
    const unknown = await unclassifiedTables(admin, workload);
    if (unknown.length > 0) {
      throw new Error(
        `${name}: table(s) ${unknown.join(', ')} neither filled nor known to stay small: say which in tools/bench/src/migrations-load/workloads`,
      );
    }
  } finally {
    await writers.close();
    await admin.end();
    await dropDatabase(options.serverUrl, database);
  }
  figures.seconds = round((performance.now() - started) / 1000, 1);
  return figures;
}

/** The role the service's request writes run as, once its migrations have created it (tenant views or policies). */
async function companyRole(admin: Client, workload: ServiceWorkload, database: string): Promise<string | undefined> {
  if (workload.writesAs !== 'company') return undefined;
  const role = tenantRoleName(database);
  const { rowCount } = await admin.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role]);
  return rowCount ? role : undefined;
}

function describe(figure: MigrationFigure): string {
  const longest = figure.longestWriteMs === null ? 'no writes (its tables do not exist yet)' : `longest write ${figure.longestWriteMs} ms of ${figure.writes}`;
  return `${figure.name} (${figure.phase}) ${figure.seconds} s, ${longest}, ${figure.failedWrites} failed, ${figure.retries} retries`;
}
