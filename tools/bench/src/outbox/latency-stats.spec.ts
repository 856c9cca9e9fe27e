import { percentile, summarize } from './latency-stats';

describe('latency statistics', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('summarizes unsorted latencies', () => {
    expect(summarize([30, 10, 20, 40])).toEqual({ count: 4, p50Ms: 20, p95Ms: 40, p99Ms: 40, maxMs: 40, meanMs: 25 });
  });
});
