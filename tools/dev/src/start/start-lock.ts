import { readFileSync, rmSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a running `npm start` notes in its data directory: who runs it and where it answers. */
export interface StartLockOwner {
  pid: number;
  url: string;
  startedAt: string;
}

export class AlreadyRunningError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: StartLockOwner,
  ) {
    super(
      `npm start is already running on ${dataDir} (pid ${owner.pid}, ${owner.url}): stop it first, ` +
        `or give this one a data directory of its own (ERP_DATA_DIR) and other ports`,
    );
  }
}

const LOCK_FILE = 'npm-start.lock';

/**
 * Takes the data directory for this process: one `npm start` per data directory, as one PostgreSQL
 * per cluster. The lock is a file created exclusively holding the owner's pid and URL, as
 * PostgreSQL's own `postmaster.pid`: a lock left by a process that is gone (killed, the machine
 * restarted) is taken over, which a lock that only expires by time (proper-lockfile's) would refuse
 * for seconds after a crash. Returns the release, which also runs when the process exits.
 */
export async function takeStartLock(dataDir: string, url: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  const owner: StartLockOwner = { pid: process.pid, url, startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, `${JSON.stringify(owner)}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const holder = await readOwner(file);
    if (holder && isStartProcess(holder.pid)) throw new AlreadyRunningError(dataDir, holder);
    // Stale: its process is gone. Removed, then taken exclusively again (a racing start loses).
    await rm(file, { force: true });
  }
  const releaseSync = () => {
    if (readOwnerSync(file)?.pid === process.pid) rmSyncQuiet(file);
  };
  process.once('exit', releaseSync);
  return async () => {
    process.removeListener('exit', releaseSync);
    if ((await readOwner(file))?.pid === process.pid) await rm(file, { force: true });
  };
}

/** The owner of a data directory's lock, when a live `npm start` holds it. */
export async function runningStart(dataDir: string): Promise<StartLockOwner | undefined> {
  const holder = await readOwner(join(dataDir, LOCK_FILE));
  return holder && isStartProcess(holder.pid) ? holder : undefined;
}

async function readOwner(file: string): Promise<StartLockOwner | undefined> {
  return parseOwner(await readFile(file, 'utf8').catch(() => ''));
}

function readOwnerSync(file: string): StartLockOwner | undefined {
  try {
    return parseOwner(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function parseOwner(text: string): StartLockOwner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<StartLockOwner>;
    return typeof owner.pid === 'number' && typeof owner.url === 'string'
      ? (owner as StartLockOwner)
      : undefined;
  } catch {
    // Empty or torn: a start killed while writing it; nobody holds it.
    return undefined;
  }
}

/** Whether `pid` is alive and, where the system tells (Linux's /proc), still an `npm start`. */
function isStartProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // A pid reused by another program since the owner died does not hold the lock.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('start.ts');
  } catch {
    return true;
  }
}

function rmSyncQuiet(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Nothing to release.
  }
}
