import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Where the ports handed out here start; below it are the well-known ports of local servers. */
const LOWEST_PORT = 20_000;
/** Linux's default first ephemeral port, and the bound where the system does not say (macOS's is higher). */
const DEFAULT_EPHEMERAL_LOW = 32_768;
const ATTEMPTS = 50;

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the caller retries if it loses a race).
 *
 * Taken at random below the system's ephemeral range, not from it (port 0): a port the caller
 * binds seconds later (a test system picks every replica's port before migrating) was otherwise
 * free to become the local port of any outgoing connection meanwhile, a database or Kafka client's,
 * and the listen then failed with EADDRINUSE (the rollout suite met it in CI). Ports below the
 * range are only ever taken by listeners, which the bind below sees. Where the range leaves no
 * room below it, the system picks (port 0).
 */
export async function freePort(): Promise<number> {
  const highest = ephemeralLow() - 1;
  if (highest - LOWEST_PORT >= 1_000) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const port = LOWEST_PORT + randomInt(highest - LOWEST_PORT + 1);
      if (await listens(port)) return port;
    }
  }
  return systemPort();
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
