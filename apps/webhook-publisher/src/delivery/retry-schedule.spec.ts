import { nextRetryDelay, parseDurations, parseRetryAfter, type RetryPolicy } from './retry-schedule';

const API_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

describe('retry schedule', () => {
  it('parses the API.md schedule, which spans about three days', () => {
    const schedule = parseDurations(API_SCHEDULE);
    expect(schedule[0]).toBe(5_000);
    expect(schedule[8]).toBe(24 * 3_600_000);
    const days = schedule.reduce((a, b) => a + b, 0) / 86_400_000;
    expect(days).toBeGreaterThan(3);
    expect(days).toBeLessThan(3.5);
    expect(parseDurations('20ms, 1d')).toEqual([20, 86_400_000]);
  });

  const policy: RetryPolicy = { schedule: [1_000, 10_000], jitter: 0.2, maxRetryAfterMs: 60_000 };

  it('jitters each pause within the configured fraction and stops after the last retry', () => {
    expect(nextRetryDelay(policy, 1, undefined, () => 0)).toBe(800);
    expect(nextRetryDelay(policy, 1, undefined, () => 1)).toBe(1_200);
    expect(nextRetryDelay(policy, 2, undefined, () => 0.5)).toBe(10_000);
    expect(nextRetryDelay(policy, 3)).toBeUndefined();
  });

  it('uses Retry-After instead of the schedule, within the maximum, but never beyond the last retry', () => {
    expect(nextRetryDelay(policy, 1, 30_000)).toBe(30_000);
    expect(nextRetryDelay(policy, 1, 3_600_000)).toBe(60_000);
    expect(nextRetryDelay(policy, 3, 1_000)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-04-21T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 21 Apr 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
