import { performance } from 'node:perf_hooks';

/** The body of a 200 answer as text; anything else throws with the start of the body. */
export async function fetchBody(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

export interface StreamedRead {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

/** Reads a 200 answer as it streams, counting bytes and never holding more than one chunk. */
export async function readStreamed(url: string, headers: Record<string, string>): Promise<StreamedRead> {
  const start = performance.now();
  const response = await fetch(url, { headers });
  if (response.status !== 200 || !response.body) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  let ttfbMs = -1;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (ttfbMs < 0) ttfbMs = performance.now() - start;
    bytes += chunk.byteLength;
  }
  return { ttfbMs, totalMs: performance.now() - start, bytes };
}

/** The q-quantile (0..1) of the values, nearest rank; NaN for none. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
