/** How long a replica that refused a connection is left out of the turn. */
export const REFUSED_REPLICA_PAUSE_MS = 2_000;

/**
 * The replicas behind one upstream, taken in turn, as a Kubernetes Service spreads connections
 * over its ready pods. In Kubernetes the variable names the Service (one URL) and this is a list
 * of one; `npm start` and the test harness name each replica (a comma-separated list). A replica
 * that refused a connection (stopped, restarting) is skipped for REFUSED_REPLICA_PAUSE_MS, as a
 * Service drops a pod whose readiness fails; the request that met it answers 503 with Retry-After.
 */
export class ReplicaSet {
  private next = 0;
  private readonly pausedUntil = new Map<string, number>();

  constructor(readonly urls: readonly string[]) {
    if (urls.length === 0) throw new Error('a replica set needs at least one URL');
  }

  /** The next replica in turn that is not paused (or the next in turn when all are). */
  pick(now = Date.now()): string {
    for (let tried = 0; tried < this.urls.length; tried++) {
      const url = this.urls[(this.next + tried) % this.urls.length] as string;
      if ((this.pausedUntil.get(url) ?? 0) <= now) {
        this.next = (this.next + tried + 1) % this.urls.length;
        return url;
      }
    }
    const url = this.urls[this.next] as string;
    this.next = (this.next + 1) % this.urls.length;
    return url;
  }

  /** `url` refused a connection: leave it out of the turn for a while. */
  refused(url: string, now = Date.now()): void {
    this.pausedUntil.set(url, now + REFUSED_REPLICA_PAUSE_MS);
  }
}
