import { IsOptional, Matches } from 'class-validator';
import { type ClassReference, createDataSource, grantRuntimeLogin, migrateDatabase, type MigrationRun, missingExpandMigrations } from '@erp/database';
import { loadConfig, ServiceConfig } from './config';

/** What the migration Job reads: the owner's DATABASE_URL, and the login the service connects as. */
export class MigrateConfig extends ServiceConfig {
  /**
   * The runtime login (docs/platform-teams.md, "Database logins"): after migrating, it is granted
   * the request and service roles, and refused when it could leave the tenant wall. Unset: nothing
   * is granted (a single-login setup, or an operator who grants by hand).
   */
  @IsOptional()
  @Matches(/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/, { message: 'DATABASE_RUNTIME_LOGIN must be a role name (letters, digits, _, $, -; at most 63)' })
  DATABASE_RUNTIME_LOGIN?: string;
}

export interface MigrateOptions {
  /** The app's name, in the output and the connection's application_name (`<service>-migrate`). */
  service: string;
  entities: ClassReference[];
  migrations: ClassReference[];
}

/** What `migrate.js` was asked to do (docs/migrations.md). */
export type MigrateCommand = { kind: 'migrate'; run: MigrationRun } | { kind: 'wait'; timeoutMs: number };

const USAGE = 'usage: migrate.js [--phase=expand|contract] | --wait-for-schema[=<seconds>]';
const WAIT_POLL_MS = 2_000;

/**
 * The command line of a service's `migrate.ts`:
 * - `--phase=expand` (the default): the expand migrations, before a release's pods start;
 * - `--phase=contract`: every pending migration, the contract ones included, once every pod runs
 *   the release (and for a new database);
 * - `--wait-for-schema[=seconds]` (the pods' init container): wait, reading only, until the database
 *   holds every expand migration this build needs (default limit 600 s).
 */
export function migrateCommandOf(argv: string[]): MigrateCommand {
  const args = argv.filter((arg) => arg.startsWith('--'));
  if (args.length > 1) throw new Error(USAGE);
  const [arg] = args;
  if (arg === undefined || arg === '--phase=expand') return { kind: 'migrate', run: 'expand' };
  if (arg === '--phase=contract') return { kind: 'migrate', run: 'all' };
  const wait = /^--wait-for-schema(?:=(\d+))?$/.exec(arg);
  if (wait) return { kind: 'wait', timeoutMs: Number(wait[1] ?? 600) * 1000 };
  throw new Error(USAGE);
}

/**
 * A service's `migrate.ts` entry: applies its migrations (or waits for them) and exits, 0 on
 * success and 1 with the reason otherwise. Run by `npm start` before each service, as the
 * Kubernetes migration Jobs and as the pods' init container. It reads only the shared
 * ServiceConfig (DATABASE_URL): the Job needs no Kafka, storage or other settings of the service.
 */
export function runMigrate(options: MigrateOptions, argv: string[] = process.argv.slice(2)): void {
  void migrate(options, argv).catch((err: unknown) => {
    process.stderr.write(`${options.service} migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

async function migrate({ service, entities, migrations }: MigrateOptions, argv: string[]): Promise<void> {
  const command = migrateCommandOf(argv);
  const config = loadConfig(MigrateConfig);
  const source = { url: config.DATABASE_URL, entities, migrations, applicationName: `${service}-migrate` };
  if (command.kind === 'wait') {
    await waitForSchema(service, source, command.timeoutMs);
    return;
  }
  const log = (line: string) => process.stdout.write(`${service}: ${line}\n`);
  const applied = await migrateDatabase(source, { run: command.run, log });
  const step = command.run === 'expand' ? 'expand' : 'contract';
  log(`${applied.length} migration(s) applied (${step} step)${applied.length ? `: ${applied.join(', ')}` : ''}`);
  if (config.DATABASE_RUNTIME_LOGIN) {
    await grantRuntimeLogin(config.DATABASE_URL, config.DATABASE_RUNTIME_LOGIN);
    log(`runtime login "${config.DATABASE_RUNTIME_LOGIN}" granted the request and service roles`);
  }
}

/**
 * The init container's wait, as the pod's own runtime login: it reads the migrations table as the
 * service role, which an expand migration creates, so until then the reason is that role's absence.
 */
async function waitForSchema(service: string, source: Parameters<typeof createDataSource>[0], timeoutMs: number): Promise<void> {
  const dataSource = createDataSource({ ...source, tenantIsolation: true, poolSize: 1 });
  await dataSource.initialize();
  const deadline = Date.now() + timeoutMs;
  try {
    for (let reported = ''; ; ) {
      const missing = await missingExpandMigrations(dataSource, source.migrations).catch((error: unknown) => [
        `(the service role cannot be used yet: ${error instanceof Error ? error.message : String(error)})`,
      ]);
      if (missing.length === 0) return;
      const now = missing.join(', ');
      if (now !== reported) process.stdout.write(`${service}: waiting for the expand migrations ${now}\n`);
      reported = now;
      if (Date.now() > deadline) throw new Error(`the expand migrations ${now} were not applied within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  } finally {
    await dataSource.destroy();
  }
}
