import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';

interface PostmasterPid {
  pid: number;
  port: number | undefined;
}

/**
 * Makes sure no earlier server holds `dataDir` before we start one on it.
 *
 * - No `postmaster.pid`: nothing to do.
 * - Its process is gone, or the pid now belongs to something else: the lock file is stale
 *   (the server was killed); remove it.
 * - A PostgreSQL server for this directory is alive whose parent is no longer a Node process:
 *   an orphan of a run that was killed before it could stop its server; shut it down (fast
 *   shutdown, then harder signals).
 * - A PostgreSQL server for this directory is alive and still owned by a Node process: another
 *   run is using it; fail with a message naming the pid and port.
 */
export async function stopOrphanedEmbeddedPostgres(
  dataDir: string,
  onLog: (line: string) => void = () => undefined,
): Promise<void> {
  const pidFile = path.join(path.resolve(dataDir), 'postmaster.pid');
  const lock = await readPostmasterPid(pidFile);
  if (!lock) return;
  if (!isAlive(lock.pid) || !(await isPostmasterFor(lock.pid, path.resolve(dataDir)))) {
    onLog(`removing stale ${pidFile} (pid ${lock.pid} is not a PostgreSQL server for this directory)`);
    await rm(pidFile, { force: true });
    return;
  }
  const owner = await parentOf(lock.pid);
  if (owner !== undefined && owner > 1 && (await isNodeProcess(owner))) {
    throw new Error(
      `PostgreSQL is already running on ${dataDir} (pid ${lock.pid}, port ${lock.port ?? '?'}), ` +
        `started by the live process ${owner}. Stop that process first, or use another data directory.`,
    );
  }
  onLog(`stopping orphaned PostgreSQL (pid ${lock.pid}, port ${lock.port ?? '?'}) left on ${dataDir}`);
  await terminate(lock.pid);
  await rm(pidFile, { force: true });
}

async function readPostmasterPid(pidFile: string): Promise<PostmasterPid | undefined> {
  let text: string;
  try {
    text = await readFile(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  // Lines: pid, data directory, start time, port, socket directory, listen address, shmem key.
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  return { pid: Number.isInteger(pid) && pid > 0 ? pid : 0, port: Number.isInteger(port) ? port : undefined };
}

/** Signals the server (fast shutdown, then immediate, then kill) until it is gone. */
async function terminate(pid: number): Promise<void> {
  const steps: [NodeJS.Signals, number][] = [
    ['SIGINT', 15_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
  for (const [signal, waitMs] of steps) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await waitForExit(pid, waitMs)) return;
  }
  throw new Error(`Could not stop the orphaned PostgreSQL server (pid ${pid})`);
}

export function isAlive(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid) || (await isZombie(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * True when `pid` is a PostgreSQL postmaster for `dataDir` (Linux: read from /proc). Where /proc
 * is missing we cannot tell, so we assume it is, and never remove a live server's lock file.
 */
async function isPostmasterFor(pid: number, dataDir: string): Promise<boolean> {
  const commandLine = await commandLineOf(pid);
  if (commandLine === undefined) return true;
  const args = commandLine.split('\0');
  const dirArg = args.indexOf('-D');
  return (
    /(^|\/)postgres$/.test(args[0] ?? '') && dirArg >= 0 && path.resolve(args[dirArg + 1] ?? '') === dataDir
  );
}

async function commandLineOf(pid: number): Promise<string | undefined> {
  try {
    return await readFile(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
}

async function isNodeProcess(pid: number): Promise<boolean> {
  const program = (await commandLineOf(pid))?.split('\0')[0] ?? '';
  return /^node/.test(path.basename(program));
}

async function procStat(pid: number): Promise<string[] | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may contain spaces, so split after the last ")".
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

async function parentOf(pid: number): Promise<number | undefined> {
  const fields = await procStat(pid);
  return fields ? Number.parseInt(fields[1] ?? '', 10) : undefined;
}

async function isZombie(pid: number): Promise<boolean> {
  return (await procStat(pid))?.[0] === 'Z';
}
