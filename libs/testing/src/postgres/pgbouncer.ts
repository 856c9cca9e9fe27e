import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEV_RUNTIME_LOGIN, devRuntimePassword, freePort, serverRunAs } from '@erp/database';
import { Client } from 'pg';

/** What a suite that needs PgBouncer prints when it cannot find one. */
export const PGBOUNCER_MISSING =
  "PgBouncer not found (PGBOUNCER_BIN, PATH, /usr/sbin/pgbouncer): install Debian's `pgbouncer` " +
  '(`apt-get install pgbouncer`) or set PGBOUNCER_BIN to run the connection-pooler suite; skipped';

export interface PgBouncer {
  /** `databaseUrl` (a database on the server behind) as reached through PgBouncer. */
  url(databaseUrl: string): string;
  /**
   * Whether this PgBouncer keeps protocol-level prepared statements across server sessions (1.21
   * and later, started with `max_prepared_statements`): the services' DATABASE_PREPARED_STATEMENTS
   * behind it (docs/platform-teams.md, "Behind a connection pooler").
   */
  keepsPreparedStatements: boolean;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Default `transaction`: what production poolers (and managed ones) run. */
  poolMode?: 'transaction' | 'session';
  /** Server sessions per database. Default 4, fewer than any service's pool, so sessions are shared. */
  defaultPoolSize?: number;
}

/** The pgbouncer executable: PGBOUNCER_BIN, else PATH, else Debian's /usr/sbin; undefined when none. */
export function findPgBouncer(): string | undefined {
  const candidates = [
    process.env['PGBOUNCER_BIN'],
    ...(process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'pgbouncer')),
    '/usr/sbin/pgbouncer',
  ];
  return candidates.find((file): file is string => file !== undefined && isExecutable(file));
}

/** PgBouncer keeps prepared statements from this version on (`max_prepared_statements`). */
const PREPARED_STATEMENTS_SINCE: [number, number] = [1, 21];

/** `pgbouncer --version`'s major and minor, e.g. [1, 18] for Debian 12's. */
export function pgBouncerVersion(bin: string): [number, number] {
  const match = /PgBouncer (\d+)\.(\d+)/i.exec(execFileSync(bin, ['--version'], { encoding: 'utf8' }));
  if (!match) throw new Error(`cannot read the version of ${bin}`);
  return [Number(match[1]), Number(match[2])];
}

/**
 * A real PgBouncer in front of the PostgreSQL server `serverUrl` names, on a free port of
 * 127.0.0.1, with every database of that server behind it (`*`), for tests that must hold behind
 * a connection pooler. Clients connect as the admin of `serverUrl` or as the runtime login
 * (DEV_RUNTIME_LOGIN), without a password (`auth_type = trust`), and PgBouncer logs in to the server
 * as that same login, with the password its `auth_file` holds. Run as root (CI), it drops to
 * the embedded server's unprivileged user, since PgBouncer refuses to run as root.
 */
export async function startPgBouncer(serverUrl: string, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const bin = findPgBouncer();
  if (!bin) throw new Error(PGBOUNCER_MISSING);
  const [major, minor] = pgBouncerVersion(bin);
  const keepsPreparedStatements = major > PREPARED_STATEMENTS_SINCE[0] || (major === PREPARED_STATEMENTS_SINCE[0] && minor >= PREPARED_STATEMENTS_SINCE[1]);
  const server = new URL(serverUrl);
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'erp-pgbouncer-'));
  await chmod(dir, 0o755);
  const serverAddress = `host=${server.hostname} port=${server.port || '5432'}`;
  // The logins PgBouncer passes on to the server: the admin's, and the runtime login the services
  // connect as (ensureRuntimeLogin), each with the password PgBouncer logs in to the server with.
  const logins = [
    [decodeURIComponent(server.username || 'postgres'), decodeURIComponent(server.password)],
    [DEV_RUNTIME_LOGIN, devRuntimePassword(serverUrl)],
  ];
  const authFile = path.join(dir, 'userlist.txt');
  await writeFile(authFile, logins.map(([user, password]) => `"${user}" "${password}"`).join('\n') + '\n', { mode: 0o644 });
  const config = path.join(dir, 'pgbouncer.ini');
  await writeFile(
    config,
    [
      '[databases]',
      `* = ${serverAddress}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${authFile}`,
      `pool_mode = ${options.poolMode ?? 'transaction'}`,
      `default_pool_size = ${options.defaultPoolSize ?? 4}`,
      'max_client_conn = 2000',
      'max_db_connections = 0',
      'ignore_startup_parameters =',
      // As the deploy kit's (tools/deploy-check/src/pgbouncer.ts); an older PgBouncer refuses the key.
      ...(keepsPreparedStatements ? ['max_prepared_statements = 200'] : []),
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const runAs = await serverRunAs();
  const child = spawn(bin, [...(runAs ? ['-u', runAs.user] : []), config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(chunk.toString()) > 200 && output.shift();
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const bouncerUrl = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };
  try {
    await waitUntilAnswers(bouncerUrl(serverUrl), child, output);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: bouncerUrl,
    keepsPreparedStatements,
    stop: async () => {
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitUntilAnswers(url: string, child: ChildProcess, output: string[]): Promise<void> {
  for (const deadline = Date.now() + 10_000; ; ) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${output.join('')}`);
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`pgbouncer did not answer: ${String(error)}; ${output.join('')}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
