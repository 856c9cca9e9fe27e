import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import { redactUrl, startEmbeddedPostgres, stopOrphanedEmbeddedPostgres } from '@erp/database';
import { Client } from 'pg';

import type { TestFixture } from './fixture-runner';

const CLUSTER_DIR_PREFIX = 'test-postgres-';

/**
 * The PostgreSQL server tests create their databases on, exported as TEST_DATABASE_SERVER_URL.
 * DATABASE_URL set: that server (it must answer). Otherwise: a throw-away embedded server in
 * `<repo>/.data/test-postgres-<pid>` on a free port, deleted when the run ends. Clusters left by
 * runs that were killed are cleaned up first.
 */
export const postgresFixture: TestFixture = {
  name: 'postgres',
  async start({ rootDir, log }) {
    const databaseUrl = process.env['DATABASE_URL'];
    if (databaseUrl) {
      await assertAnswers(databaseUrl);
      log(`postgres: using DATABASE_URL ${redactUrl(databaseUrl)}`);
      return { env: { TEST_DATABASE_SERVER_URL: databaseUrl }, stop: async () => undefined };
    }

    const dataRoot = path.join(rootDir, '.data');
    await removeAbandonedClusters(dataRoot, log);
    const dataDir = path.join(dataRoot, `${CLUSTER_DIR_PREFIX}${process.pid}`);
    const server = await startEmbeddedPostgres({ dataDir, persistent: false, onLog: log });
    return {
      env: { TEST_DATABASE_SERVER_URL: server.adminUrl },
      stop: async () => {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
};

async function assertAnswers(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const reason = error instanceof AggregateError ? error.errors[0] : error;
    throw new Error(
      `DATABASE_URL is set but PostgreSQL at ${redactUrl(url)} does not answer ` +
        `(${reason instanceof Error ? reason.message || reason.constructor.name : String(reason)}). ` +
        `Start it, fix the URL, or unset DATABASE_URL to use an embedded server.`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Deletes `.data/test-postgres-<pid>` directories whose Jest process is gone, and their servers. */
async function removeAbandonedClusters(dataRoot: string, log: (line: string) => void): Promise<void> {
  const entries = await readdir(dataRoot).catch(() => []);
  for (const entry of entries) {
    if (!entry.startsWith(CLUSTER_DIR_PREFIX)) continue;
    const ownerPid = Number.parseInt(entry.slice(CLUSTER_DIR_PREFIX.length), 10);
    if (!Number.isInteger(ownerPid) || ownerPid === process.pid || (await isLiveNodeProcess(ownerPid)))
      continue;
    const dir = path.join(dataRoot, entry);
    log(`postgres: removing ${dir}, abandoned by test run ${ownerPid}`);
    await stopOrphanedEmbeddedPostgres(dir, log);
    await rm(dir, { recursive: true, force: true });
  }
}

async function isLiveNodeProcess(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // Alive; where /proc tells us, a reused pid that is not Node does not count.
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return commandLine === undefined || /^node/.test(path.basename(commandLine.split('\0')[0] ?? ''));
}
