import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { Client } from 'pg';

import { freePort } from './free-port';
import { giveTo, prepareDataDirectory, type RunAs, serverRunAs } from './os-user';
import { type PostgresBinaries, postgresBinaries } from './postgres-binaries';
import { stopOrphanedEmbeddedPostgres } from './stale-postmaster';

export interface EmbeddedPostgresOptions {
  /** Where the cluster lives, e.g. `<repo>/.data/postgres`. Created if missing. */
  dataDir: string;
  /** 0 or undefined: pick a free port. */
  port?: number;
  /**
   * Keep data between runs (default true): an initialised directory is reused as is. When false
   * the cluster is created afresh on every start, tuned for speed (no fsync; data lost on a
   * crash), and deleted on stop.
   */
  persistent?: boolean;
  /** Receives initdb and server output and lifecycle notes, line by line. Silent when omitted. */
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgresHandle {
  /** postgres://postgres:postgres@127.0.0.1:PORT/postgres (superuser, `postgres` database). */
  adminUrl: string;
  port: number;
  /** Fast shutdown (and, when not persistent, deletes the data directory). Idempotent. */
  stop(): Promise<void>;
}

/** Development-only credentials: the server listens on 127.0.0.1 only. */
export const EMBEDDED_POSTGRES_USER = 'postgres';
export const EMBEDDED_POSTGRES_PASSWORD = 'postgres';
const MAX_CONNECTIONS = 300;
const START_TIMEOUT_MS = 60_000;
const PORT_ATTEMPTS = 5;
const LOG_TAIL_LINES = 40;

const execFileAsync = promisify(execFile);

/**
 * Starts a PostgreSQL server from the binaries of the `embedded-postgres` package, on 127.0.0.1,
 * and resolves once it accepts connections. Initialises the cluster only when `dataDir` does not
 * hold one yet (or always, when not persistent). A server left running on `dataDir` by a killed
 * earlier run is shut down first; one still owned by a live process is an error.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const persistent = options.persistent ?? true;
  const onLog = options.onLog ?? (() => undefined);
  const binaries = postgresBinaries();
  const runAs = await serverRunAs();

  await stopOrphanedEmbeddedPostgres(dataDir, onLog);
  await initialiseIfNeeded({ dataDir, persistent, binaries, runAs, onLog });

  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await freePort());
    try {
      return await launch({ dataDir, persistent, binaries, runAs, onLog, port });
    } catch (error) {
      const portTaken = error instanceof PortInUseError;
      if (!portTaken || options.port || attempt >= PORT_ATTEMPTS) {
        if (!persistent) await rm(dataDir, { recursive: true, force: true });
        throw error;
      }
      onLog(`port ${port} was taken meanwhile; retrying on another`);
    }
  }
}

interface ClusterContext {
  dataDir: string;
  persistent: boolean;
  binaries: PostgresBinaries;
  runAs: RunAs | undefined;
  onLog: (line: string) => void;
}

async function initialiseIfNeeded(context: ClusterContext): Promise<void> {
  const { dataDir, persistent, binaries, runAs, onLog } = context;
  const serverMajor = await majorVersionOf(binaries.postgres);
  const clusterMajor = await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );

  if (clusterMajor !== undefined) {
    if (persistent && clusterMajor === serverMajor) {
      onLog(`reusing the PostgreSQL ${clusterMajor} cluster in ${dataDir}`);
      return;
    }
    if (persistent) {
      throw new Error(
        `${dataDir} holds a PostgreSQL ${clusterMajor} cluster but the embedded server is PostgreSQL ` +
          `${serverMajor}. It only holds development data: delete the directory to start afresh.`,
      );
    }
    await rm(dataDir, { recursive: true, force: true });
  } else if ((await readdir(dataDir).catch(() => [])).length > 0) {
    throw new Error(
      `${dataDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION), perhaps from an ` +
        `interrupted initialisation. Delete it, or choose another data directory.`,
    );
  }

  await prepareDataDirectory(dataDir, runAs);
  const passwordFile = path.join(os.tmpdir(), `erp-pg-password-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${EMBEDDED_POSTGRES_PASSWORD}\n`, { mode: 0o600 });
  try {
    await giveTo(passwordFile, runAs);
    onLog(`initialising a PostgreSQL ${serverMajor} cluster in ${dataDir}`);
    await execFileAsync(
      binaries.initdb,
      [
        `--pgdata=${dataDir}`,
        `--username=${EMBEDDED_POSTGRES_USER}`,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // Locale-independent of the host: C collation, Unicode-aware case mapping (PostgreSQL 17+).
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
        ...(persistent ? [] : ['--no-sync']),
      ],
      { cwd: dataDir, env: serverEnv(), uid: runAs?.uid, gid: runAs?.gid, maxBuffer: 16 * 1024 * 1024 },
    ).then(({ stdout, stderr }) => emitLines(`${stdout}${stderr}`, onLog));
  } catch (error) {
    const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : '';
    throw new Error(`initdb failed for ${dataDir}: ${output.trim() || String(error)}`, { cause: error });
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function launch(context: ClusterContext & { port: number }): Promise<EmbeddedPostgresHandle> {
  const { dataDir, persistent, binaries, runAs, onLog, port } = context;
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    max_connections: MAX_CONNECTIONS,
    ...(persistent ? {} : { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
  };
  const args = ['-D', dataDir, '-p', String(port)];
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);

  const logTail: string[] = [];
  const child = spawn(binaries.postgres, args, {
    cwd: dataDir,
    env: serverEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    uid: runAs?.uid,
    gid: runAs?.gid,
  });
  const record = (chunk: Buffer): void =>
    emitLines(chunk.toString('utf8'), (line) => {
      logTail.push(line);
      if (logTail.length > LOG_TAIL_LINES) logTail.shift();
      onLog(line);
    });
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  // If this process exits without stopping the server, ask it to shut down (fast) by itself.
  const onProcessExit = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.once('exit', onProcessExit);

  const adminUrl =
    `postgres://${EMBEDDED_POSTGRES_USER}:${EMBEDDED_POSTGRES_PASSWORD}` + `@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilReady(child, adminUrl, dataDir, logTail);
  } catch (error) {
    process.removeListener('exit', onProcessExit);
    await shutDown(child);
    throw error;
  }
  onLog(`PostgreSQL listening on 127.0.0.1:${port} (data in ${dataDir})`);
  let stopping: Promise<void> | undefined;
  child.once('exit', (code, signal) => {
    if (!stopping) onLog(`PostgreSQL exited unexpectedly (code ${code}, signal ${signal})`);
  });

  return {
    adminUrl,
    port,
    stop: () => {
      stopping ??= (async () => {
        process.removeListener('exit', onProcessExit);
        await shutDown(child);
        onLog(`PostgreSQL on port ${port} stopped`);
        if (!persistent) await rm(dataDir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

class PortInUseError extends Error {}

async function waitUntilReady(
  child: ChildProcess,
  adminUrl: string,
  dataDir: string,
  logTail: string[],
): Promise<void> {
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => {
      const tail = logTail.join('\n');
      const Failure = /Address already in use|could not create any TCP\/IP sockets/.test(tail)
        ? PortInUseError
        : Error;
      reject(new Failure(`PostgreSQL exited during start-up (code ${code}, signal ${signal}):\n${tail}`));
    }),
  );
  exited.catch(() => undefined);
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`Cannot run PostgreSQL: ${error.message}`))),
  );
  spawnFailed.catch(() => undefined);

  const deadline = Date.now() + START_TIMEOUT_MS;
  const ready = (async () => {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (await answers(adminUrl, dataDir)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000}s:\n${logTail.join('\n')}`,
    );
  })();
  await Promise.race([ready, exited, spawnFailed]);
  if (child.exitCode !== null || child.signalCode !== null) await exited;
}

/** True once our server (not some other one that got the port) accepts a query. */
async function answers(adminUrl: string, dataDir: string): Promise<boolean> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    if (path.resolve(rows[0]?.data_directory ?? '') !== dataDir) {
      throw new PortInUseError(`Another PostgreSQL server answers on ${new URL(adminUrl).port}`);
    }
    return true;
  } catch (error) {
    if (error instanceof PortInUseError) throw error;
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Fast shutdown; escalate if the server does not finish in time. */
async function shutDown(child: ChildProcess): Promise<void> {
  const steps: [NodeJS.Signals, number][] = [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
  for (const [signal, waitMs] of steps) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const exited = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), waitMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    child.kill(signal);
    if (await exited) return;
  }
}

async function majorVersionOf(postgresBinary: string): Promise<string> {
  // `postgres --version` is answered before the "must not run as root" check.
  const { stdout } = await execFileAsync(postgresBinary, ['--version'], { env: serverEnv() });
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
  if (!match?.[1]) throw new Error(`Unexpected "postgres --version" output: ${stdout.trim()}`);
  return match[1];
}

/** English messages regardless of the host locale, and no PG* variables leaking in. */
function serverEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PG')));
  return { ...env, LC_MESSAGES: 'C', LC_ALL: 'C' };
}

function emitLines(text: string, onLine: (line: string) => void): void {
  for (const line of text.split('\n')) if (line.trim()) onLine(line.trimEnd());
}
