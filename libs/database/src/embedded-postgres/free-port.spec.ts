import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  describe('reservations across processes', () => {
    let dir: string;
    // A range of the test's own, away from the default picks' usual crowd.
    const lowest = 29_000 + Math.floor(Math.random() * 3_000);
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'free-port-spec-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('never hands out one port twice, however many ask at once', async () => {
      const ports = await Promise.all(Array.from({ length: 60 }, () => freePort({ reservationsDir: dir, lowest, highest: lowest + 119 })));
      expect(new Set(ports).size).toBe(60);
      for (const port of ports) expect(port >= lowest && port <= lowest + 119).toBe(true);
    });

    it("skips a port another live process reserved, and takes over one whose process is gone", async () => {
      // The parent (Jest) is alive; a finished child is not.
      writeFileSync(join(dir, String(lowest)), String(process.ppid));
      const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
      writeFileSync(join(dir, String(lowest + 1)), gone);
      expect(await freePort({ reservationsDir: dir, lowest, highest: lowest + 1 })).toBe(lowest + 1);
      expect(readFileSync(join(dir, String(lowest + 1)), 'utf8')).toBe(String(process.pid));
    });

    it('lets a reservation lapse after ten minutes, its process alive or not', async () => {
      writeFileSync(join(dir, String(lowest)), String(process.ppid));
      const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
      utimesSync(join(dir, String(lowest)), elevenMinutesAgo, elevenMinutesAgo);
      expect(await freePort({ reservationsDir: dir, lowest, highest: lowest })).toBe(lowest);
    });
  });
});
