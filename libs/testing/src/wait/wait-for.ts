/**
 * Polls `find` (synchronous: it reads what a callback has collected, e.g. webhook deliveries or
 * exported spans) until it gives a value, every `intervalMs`; fails naming `what` after
 * `timeoutMs`. A passing test never waits the timeout, so it can be generous.
 */
export async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 60_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
