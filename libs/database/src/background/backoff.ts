export interface BackoffOptions {
  /** First delay, in ms. */
  initialMs: number;
  /** Upper bound of any delay, in ms. */
  maxMs: number;
  /** Growth per attempt. Default 2. */
  factor?: number;
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so replicas that
 * failed together do not retry in lockstep, and no delay is ever near zero. `attempt` counts
 * from 1 (the delay after the first failure).
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const exponential = options.initialMs * (options.factor ?? 2) ** Math.max(0, attempt - 1);
  const capped = Math.min(options.maxMs, exponential);
  return Math.round(capped / 2 + (random() * capped) / 2);
}

/** Resolves after `ms`, or at once when the signal aborts (a stopping loop must not sleep on). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
