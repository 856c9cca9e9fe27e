import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { giveTo, prepareDataDirectory, type RunAs } from './os-user';
import type { PostgresBinaries } from './postgres-binaries';
import { emitLines, serverEnv } from './server-env';

/** Development-only credentials: the server listens on 127.0.0.1 only. */
export const EMBEDDED_POSTGRES_USER = 'postgres';
export const EMBEDDED_POSTGRES_PASSWORD = 'postgres';

const execFileAsync = promisify(execFile);

/** A cluster's directory, the server binaries and who runs them. */
export interface ClusterContext {
  dataDir: string;
  persistent: boolean;
  binaries: PostgresBinaries;
  runAs: RunAs | undefined;
  onLog: (line: string) => void;
}

/**
 * Runs initdb unless `dataDir` holds a cluster of the server's major version (persistent), and
 * always afresh when not persistent; refuses a cluster of another version or a non-empty
 * directory without one (development data is never deleted silently).
 *
 * initdb writes into `<dataDir>.initdb` and the finished cluster is renamed into place, so a
 * process killed during initdb (Ctrl-C in the first `npm start`) leaves no half-made cluster in
 * `dataDir`, only that staging directory, which the next start removes and makes again.
 */
export async function initialiseIfNeeded(context: ClusterContext): Promise<void> {
  const { dataDir, persistent, binaries, runAs, onLog } = context;
  const staging = `${dataDir}.initdb`;
  await rm(staging, { recursive: true, force: true });
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

  await prepareDataDirectory(staging, runAs);
  const passwordFile = path.join(os.tmpdir(), `erp-pg-password-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${EMBEDDED_POSTGRES_PASSWORD}\n`, { mode: 0o600 });
  try {
    await giveTo(passwordFile, runAs);
    onLog(`initialising a PostgreSQL ${serverMajor} cluster in ${dataDir}`);
    await execFileAsync(
      binaries.initdb,
      [
        `--pgdata=${staging}`,
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
      { cwd: staging, env: serverEnv(), uid: runAs?.uid, gid: runAs?.gid, maxBuffer: 16 * 1024 * 1024 },
    ).then(({ stdout, stderr }) => emitLines(`${stdout}${stderr}`, onLog));
    // The empty directory checked above, if any, gives way to the finished cluster.
    await rmdir(dataDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(staging, dataDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : '';
    throw new Error(`initdb failed for ${dataDir}: ${output.trim() || String(error)}`, { cause: error });
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function majorVersionOf(postgresBinary: string): Promise<string> {
  // `postgres --version` is answered before the "must not run as root" check.
  const { stdout } = await execFileAsync(postgresBinary, ['--version'], { env: serverEnv() });
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
  if (!match?.[1]) throw new Error(`Unexpected "postgres --version" output: ${stdout.trim()}`);
  return match[1];
}
