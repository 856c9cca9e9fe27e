import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the ports handed out here start; below it are the well-known ports of local servers. */
const LOWEST_PORT = 20_000;
/** Linux's default first ephemeral port, and the bound where the system does not say (macOS's is higher). */
const DEFAULT_EPHEMERAL_LOW = 32_768;
const ATTEMPTS = 50;
/** Where every process on the machine notes the ports it handed out (reserve() below). */
const RESERVATIONS_DIR = join(tmpdir(), 'erp-free-ports');
/** How long a handed-out port stays reserved: longer than any start-up takes to listen on it. */
const RESERVATION_MS = 10 * 60_000;

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the caller retries if it loses a race).
 *
 * Taken at random below the system's ephemeral range, not from it (port 0): a port the caller
 * binds seconds later (a test system picks every replica's port before migrating) was otherwise
 * free to become the local port of any outgoing connection meanwhile, a database or Kafka client's,
 * and the listen then failed with EADDRINUSE (the rollout suite met it in CI). Ports below the
 * range are only ever taken by listeners, which the bind below sees. Where the range leaves no
 * room below it, the system picks (port 0). A port handed out is reserved for every process on the
 * machine for a while (reserve()). `options`: a range and a reservations directory of a test's own.
 */
export async function freePort(options: { reservationsDir?: string; lowest?: number; highest?: number } = {}): Promise<number> {
  const lowest = options.lowest ?? LOWEST_PORT;
  const highest = options.highest ?? ephemeralLow() - 1;
  const reservationsDir = options.reservationsDir ?? RESERVATIONS_DIR;
  if (options.highest !== undefined || highest - lowest >= 1_000) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const port = lowest + randomInt(highest - lowest + 1);
      if ((await reserve(reservationsDir, port)) && (await listens(port))) return port;
    }
  }
  return systemPort();
}

/**
 * Notes `port` as handed out, unless another live process (or this one) did so in the last
 * RESERVATION_MS. Why: a port is free until its taker listens, which for a test system's service
 * is tens of seconds later on a busy machine; two Jest workers picking the same random port in
 * that window had one service fail with EADDRINUSE and its system talk to the other's service
 * (an api-e2e suite whose gateway found another suite's process on its webhook-publisher's port).
 * No library hands out ports across processes (get-port locks them within one), hence a file per
 * port, created exclusively. Where the directory cannot be written, nothing is reserved.
 */
async function reserve(dir: string, port: number): Promise<boolean> {
  const file = join(dir, String(port));
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true;
  }
  const [owner, info] = await Promise.all([readFile(file, 'utf8').catch(() => ''), stat(file).catch(() => undefined)]);
  // A recent file whose pid is not written yet (its creator is between the exclusive create and
  // the write) is held as much as one whose owner lives: taking it over handed one port out twice.
  const pid = Number(owner);
  const unwritten = owner.trim() === '' || !Number.isInteger(pid) || pid <= 0;
  if (info && Date.now() - info.mtimeMs < RESERVATION_MS && (unwritten || isAlive(pid))) return false;
  // Stale (its process gone, or long since listening): taken over, again exclusively.
  await unlink(file).catch(() => undefined);
  return writeFile(file, String(process.pid), { flag: 'wx' }).then(
    () => true,
    () => false,
  );
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const value = Number(low);
    return Number.isInteger(value) && value > 0 ? value : DEFAULT_EPHEMERAL_LOW;
  } catch {
    return DEFAULT_EPHEMERAL_LOW;
  }
}

/** Whether `port` can be listened on now (it is closed again at once). */
function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('No port assigned')),
      );
    });
  });
}
