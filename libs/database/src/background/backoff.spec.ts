import { backoffDelay, sleep } from './backoff';
import { withTimeout } from './deadline';

describe('backoffDelay', () => {
  const options = { initialMs: 100, maxMs: 1_000 };

  it('doubles per attempt up to the cap, jittered within [half, full]', () => {
    expect(backoffDelay(1, options, () => 0)).toBe(50);
    expect(backoffDelay(1, options, () => 1)).toBe(100);
    expect(backoffDelay(3, options, () => 1)).toBe(400);
    expect(backoffDelay(10, options, () => 1)).toBe(1_000);
    expect(backoffDelay(10, options, () => 0)).toBe(500);
  });

  it('never goes below half the un-jittered delay', () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      const floor = Math.min(1_000, 100 * 2 ** (attempt - 1)) / 2;
      for (let i = 0; i < 50; i++) expect(backoffDelay(attempt, options)).toBeGreaterThanOrEqual(floor);
    }
  });
});

describe('sleep', () => {
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

  it('ends early when its signal aborts, leaving no timer', async () => {
    const baseline = timers();
    const controller = new AbortController();
    // An hour's sleep: ending within the minute below, it was the abort that ended it.
    const slept = sleep(60 * 60_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await withTimeout(slept, 60_000, 'the sleep went on after its signal aborted');
    expect(timers()).toBe(baseline);
  });
});
