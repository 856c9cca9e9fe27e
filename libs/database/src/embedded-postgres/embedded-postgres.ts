import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { type ClusterContext, EMBEDDED_POSTGRES_PASSWORD, EMBEDDED_POSTGRES_USER, initialiseIfNeeded } from './cluster-init';
import { freePort } from './free-port';
import { serverRunAs } from './os-user';
import { postgresBinaries } from './postgres-binaries';
import { emitLines, serverEnv } from './server-env';
import { PortInUseError, shutDown, waitUntilReady } from './server-process';
import { stopOrphanedEmbeddedPostgres } from './stale-postmaster';

export { EMBEDDED_POSTGRES_PASSWORD, EMBEDDED_POSTGRES_USER } from './cluster-init';

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

const MAX_CONNECTIONS = 300;
const PORT_ATTEMPTS = 5;
const LOG_TAIL_LINES = 40;

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
    // A persistent cluster is `npm start`'s: in a process group of its own, so the terminal's
    // Ctrl-C (sent to the whole foreground group) reaches the services and not the database they
    // drain into; stop() ends it after them. One a crash leaves behind is stopped at the next start
    // (stale-postmaster.ts). A throwaway test cluster stays in its parent's group.
    detached: persistent,
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
