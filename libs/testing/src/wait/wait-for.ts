/**
 * How long a test waits for an effect (an event, a row, an answer) before it fails naming what it
 * waited for: a liveness bound, not a speed claim (those are tools/bench's, as ratios). Generous,
 * since a passing test never waits it and a 2-core CI machine running two whole systems beside
 * the unit tests can be many times slower than an idle one. `TEST_PATIENCE_MS` sets it.
 */
export const PATIENCE_MS = Number(process.env['TEST_PATIENCE_MS'] ?? 180_000);

/**
 * Polls `find` (synchronous: it reads what a callback has collected, e.g. webhook deliveries or
 * exported spans) until it gives a value, every `intervalMs`; fails naming `what` after
 * `timeoutMs`. A passing test never waits the timeout, so it can be generous.
 */
export async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = PATIENCE_MS, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Polls `check` (which may query a service or a database) until it holds, every `intervalMs`;
 * resolves to the milliseconds it took (the reliability cases report them), fails naming `what`
 * after `timeoutMs`.
 */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 200): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
