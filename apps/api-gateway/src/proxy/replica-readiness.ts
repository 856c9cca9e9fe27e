import { Agent, request } from 'undici';
import type { ReplicaSet } from './replica-set';

/** How often each listed replica's readiness is asked. */
export const READINESS_PROBE_INTERVAL_MS = 500;
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Asks every replica of every upstream listed as several URLs (`npm start`, the tests) for its
 * `/health/ready` twice a second and tells its `ReplicaSet`, which leaves a replica out of the
 * turn while it is not ready: what Kubernetes does with a Service's endpoints. A replica that got
 * SIGTERM answers 503 at once and keeps serving for SHUTDOWN_QUIET_MS (libs/bootstrap), so the
 * gateway stops sending to it before its listener closes. An upstream of one URL (a Kubernetes
 * Service) is not asked: its Service already does this.
 *
 * Each probe is a connection of its own (`reset`, like the kubelet's), so that a draining replica
 * never waits for an idle probe connection to go.
 */
export class ReplicaReadinessWatch {
  private readonly agent = new Agent({ connect: { timeout: PROBE_TIMEOUT_MS } });
  private readonly asking = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly sets: ReplicaSet[]) {}

  start(intervalMs = READINESS_PROBE_INTERVAL_MS): void {
    const watched = this.sets.filter((set) => set.urls.length > 1);
    if (watched.length === 0) return;
    this.timer = setInterval(() => {
      for (const set of watched) for (const url of set.urls) void this.probe(set, url);
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.agent.close();
  }

  private async probe(set: ReplicaSet, url: string): Promise<void> {
    if (this.asking.has(url)) return;
    this.asking.add(url);
    try {
      const answer = await request(`${url}/health/ready`, {
        dispatcher: this.agent,
        reset: true,
        headersTimeout: PROBE_TIMEOUT_MS,
        bodyTimeout: PROBE_TIMEOUT_MS,
      });
      await answer.body.dump();
      set.setReady(url, answer.statusCode === 200);
    } catch {
      set.setReady(url, false);
    } finally {
      this.asking.delete(url);
    }
  }
}
