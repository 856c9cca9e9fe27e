const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^\s*(\d{1,9})\s*(ms|s|m|h|d)\s*$/;

/** A comma-separated list of durations such as `5s,5m,30m,2h` (validated in the config). */
export const DURATION_LIST = /^\s*\d{1,9}\s*(ms|s|m|h|d)\s*(,\s*\d{1,9}\s*(ms|s|m|h|d)\s*)*$/;

/** Parses `5s,5m,30m` into milliseconds. */
export function parseDurations(text: string): number[] {
  return text.split(',').map((part) => {
    const m = DURATION.exec(part);
    if (!m) throw new Error(`not a duration: ${part}`);
    return Number(m[1]) * UNIT_MS[m[2]];
  });
}

/** When and how often a failed delivery is tried again. */
export interface RetryPolicy {
  /** Pause before retry n (index n - 1); its length is the number of retries. */
  schedule: number[];
  /** Random stretch of each pause, as a fraction (0.2 = +-20 %). */
  jitter: number;
  /** Longest Retry-After honoured. */
  maxRetryAfterMs: number;
}

/**
 * The pause after a failed attempt (`attempts` counts the attempts made so far, this one
 * included), or undefined when no retry is left. A `Retry-After` the receiver sent (429/503)
 * replaces the scheduled pause, within `maxRetryAfterMs`; it is never jittered, because the
 * receiver asked for exactly that time.
 */
export function nextRetryDelay(
  policy: RetryPolicy,
  attempts: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (attempts > policy.schedule.length) return undefined;
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  const base = policy.schedule[attempts - 1];
  const factor = 1 + policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(base * factor));
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date (RFC 9110); undefined if unusable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1_000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
