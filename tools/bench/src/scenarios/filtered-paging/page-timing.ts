import { performance } from 'node:perf_hooks';
import { round, type LoadMeasurement } from '../../framework/load';
import { fetchBody, quantile } from '../../framework/http';

export interface TimedPage {
  ms: number;
  bytes: number;
  /** `metadata.totalCount` of the first record; 0 for an empty page. */
  totalCount: number;
  records: number;
}

/** What a page's body holds: the total it reports and how many records it carries. */
export type PageCounter = (text: string) => { totalCount: number; records: number };

/** A v1 list (an array of records, each ending in its metadata); totalCount 0 for an empty page. */
export const v1PageCounts: PageCounter = (text) => {
  // Every record ends with its metadata: counting those is all the walk needs, and costs the client
  // far less than parsing 600 KB pages (the COPY floor does not parse either).
  const totalCount = /"metadata":\{"totalCount":(\d+)/.exec(text);
  let records = 0;
  for (let at = text.indexOf('"metadata":'); at >= 0; at = text.indexOf('"metadata":', at + 1)) records++;
  return { totalCount: totalCount ? Number(totalCount[1]) : 0, records };
};

/** A v3 list page of sales orders (`{ value, totalCount, nextPage }`, each order has one `orderId`). */
export const v3OrderPageCounts: PageCounter = (text) => {
  const totalCount = /"totalCount":(\d+),"nextPage":/.exec(text);
  let records = 0;
  for (let at = text.indexOf('"orderId":'); at >= 0; at = text.indexOf('"orderId":', at + 1)) records++;
  return { totalCount: totalCount ? Number(totalCount[1]) : 0, records };
};

/** One request, timed to the last byte of the body; anything but 200 throws. */
export async function timePage(url: string, headers: Record<string, string>, counts: PageCounter = v1PageCounts): Promise<TimedPage> {
  const start = performance.now();
  const text = await fetchBody(url, headers);
  const ms = performance.now() - start;
  return { ms, bytes: text.length, ...counts(text) };
}

/**
 * The same figures a load run reports, for requests sent one at a time (one client, nothing
 * else in flight): the latency of a single page is what this scenario compares across depths.
 */
export function sequentialMeasurement(target: string, samples: TimedPage[]): LoadMeasurement {
  const ms = samples.map((s) => s.ms);
  const seconds = ms.reduce((a, b) => a + b, 0) / 1000;
  return {
    target,
    requests: samples.length,
    rps: round(samples.length / seconds, 1),
    p50Ms: round(quantile(ms, 0.5), 1),
    p99Ms: round(quantile(ms, 0.99), 1),
    meanMs: round(ms.reduce((a, b) => a + b, 0) / samples.length, 1),
    errors: 0,
    non2xx: 0,
    bytesPerSecond: Math.round(samples.reduce((a, s) => a + s.bytes, 0) / seconds),
    durationSeconds: round(seconds),
  };
}
