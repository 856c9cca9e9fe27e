/** How long a replica that refused a connection is left out of the turn. */
export const REFUSED_REPLICA_PAUSE_MS = 2_000;

/**
 * The replicas behind one upstream, taken in turn, as a Kubernetes Service spreads connections
 * over its ready pods. In Kubernetes the variable names the Service (one URL) and this is a list
 * of one; `npm start` and the test harness name each replica (a comma-separated list). A replica
 * is left out of the turn while it is not ready (its `/health/ready` fails: starting, or draining
 * after SIGTERM; `ReplicaReadinessWatch` asks) and for REFUSED_REPLICA_PAUSE_MS after it refused a
 * connection, as a Service drops a pod whose readiness fails. When none is left, every one is
 * taken in turn again: a request to a replica that may answer beats a 503 from the gateway.
 */
export class ReplicaSet {
  private next = 0;
  private readonly pausedUntil = new Map<string, number>();
  private readonly notReady = new Set<string>();

  constructor(readonly urls: readonly string[]) {
    if (urls.length === 0) throw new Error('a replica set needs at least one URL');
  }

  /** The next replica in turn that is ready and not paused (or the next in turn when none is). */
  pick(now = Date.now()): string {
    return this.nextWhere((url) => this.available(url, now)) ?? this.nextWhere(() => true) ?? (this.urls[0] as string);
  }

  /**
   * Where to send again a request that never reached `failed`: the next other replica in turn,
   * an available one first; `failed` itself when it is the only one (one Kubernetes Service URL:
   * a new connection, which the Service gives to a ready pod).
   */
  pickOther(failed: string, now = Date.now()): string {
    return (
      this.nextWhere((url) => url !== failed && this.available(url, now)) ?? this.nextWhere((url) => url !== failed) ?? failed
    );
  }

  /** `url` refused a connection: leave it out of the turn for a while. */
  refused(url: string, now = Date.now()): void {
    this.pausedUntil.set(url, now + REFUSED_REPLICA_PAUSE_MS);
  }

  /** What the replica's readiness answered. */
  setReady(url: string, ready: boolean): void {
    if (ready) this.notReady.delete(url);
    else this.notReady.add(url);
  }

  private available(url: string, now: number): boolean {
    return !this.notReady.has(url) && (this.pausedUntil.get(url) ?? 0) <= now;
  }

  private nextWhere(accept: (url: string) => boolean): string | undefined {
    for (let tried = 0; tried < this.urls.length; tried++) {
      const index = (this.next + tried) % this.urls.length;
      const url = this.urls[index] as string;
      if (accept(url)) {
        this.next = (index + 1) % this.urls.length;
        return url;
      }
    }
    return undefined;
  }
}
