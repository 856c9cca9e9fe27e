import { readFileSync } from 'node:fs';
import net from 'node:net';
import { freePort } from './free-port';

const listenOn = (port: number) =>
  new Promise<net.Server>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('freePort', () => {
  it('hands out ports below the ephemeral range that outgoing connections take theirs from, each one listenable', async () => {
    const low = (() => {
      try {
        return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
      } catch {
        return 32_768;
      }
    })();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    // A system whose ephemeral range starts below 21,000 leaves no room: it picks (port 0).
    const roomBelow = low - 1 - 20_000 >= 1_000;
    for (const port of ports) {
      if (roomBelow) expect([port >= 20_000, port < low]).toEqual([true, true]);
      const server = await listenOn(port);
      await new Promise((resolve) => server.close(resolve));
    }
    // Random, not one port over and over.
    expect(new Set(ports).size).toBeGreaterThan(10);
  });
});
