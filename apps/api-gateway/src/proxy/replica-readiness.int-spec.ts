import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../testing/upstream-fakes';
import { ReplicaReadinessWatch } from './replica-readiness';
import { ReplicaSet } from './replica-set';

/** A replica's readiness endpoint on a real socket; `ready` decides what it answers. */
async function readinessServer(): Promise<{ url: string; ready: boolean; probes: number; server: Server }> {
  const state = { ready: true, probes: 0 };
  const server = createServer((request, response) => {
    if (request.url === '/health/ready') state.probes++;
    response.writeHead(request.url === '/health/ready' && state.ready ? 200 : 503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server });
}

/** The replicas the set takes in turn, once that is `expected` (probes run every 50 ms; a loaded machine is slow). */
async function turnBecomes(set: ReplicaSet, expected: string[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  const turn = () => [...new Set([1, 2, 3, 4, 5, 6].map(() => set.pick()))].sort();
  while (JSON.stringify(turn()) !== JSON.stringify([...expected].sort()) && Date.now() < deadline) await sleep(20);
  expect(turn()).toEqual([...expected].sort());
}

describe('ReplicaReadinessWatch', () => {
  it('leaves out of the turn a replica whose readiness fails or that refuses, and takes it back once ready', async () => {
    const a = await readinessServer();
    const b = await readinessServer();
    const stopped = `http://127.0.0.1:${await freePort()}`;
    const set = new ReplicaSet([a.url, b.url, stopped]);
    const watch = new ReplicaReadinessWatch([set]);
    try {
      b.ready = false;
      watch.start(50);
      await turnBecomes(set, [a.url]);
      b.ready = true;
      await turnBecomes(set, [a.url, b.url]);
    } finally {
      await watch.stop();
      a.server.close();
      b.server.close();
    }
  });

  it('does not ask an upstream of one URL (a Kubernetes Service answers for its pods)', async () => {
    const only = await readinessServer();
    const watch = new ReplicaReadinessWatch([new ReplicaSet([only.url])]);
    try {
      watch.start(50);
      await sleep(300);
      expect(only.probes).toBe(0);
    } finally {
      await watch.stop();
      only.server.close();
    }
  });
});
