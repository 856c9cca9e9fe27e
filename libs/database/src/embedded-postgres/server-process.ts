import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

import { Client } from 'pg';

const START_TIMEOUT_MS = 60_000;

/** The server could not listen: its port was taken (by the time it started, or by another server). */
export class PortInUseError extends Error {}

/** Resolves once the server answers; rejects when it exits first, fails to spawn, or stays silent too long. */
export async function waitUntilReady(
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
export async function shutDown(child: ChildProcess): Promise<void> {
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
