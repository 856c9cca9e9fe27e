import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { round } from '../../framework/load';
import { quantile } from '../../framework/http';
import { NAME_FIRST, NAME_SECOND } from '../../data/customers.generator';
import { waitForNameCounts } from './customer-filters';

export interface NameCountWrites {
  /** The fragments `kept` keeps counts of (those whose search found at least customers-v1's minimum of matches). */
  fragments: number;
  /** p50 ms of a PUT renaming a customer of the company that keeps the fragments' counts. */
  keptP50Ms: number;
  /** The same in a company that keeps none (its writes skip the counts after one lookup). */
  noneP50Ms: number;
  samples: number;
}

interface Company {
  id: string;
  headers: Record<string, string>;
  numbers: string[];
}

/**
 * What kept name counts cost the writes: every part of the generated names becomes a counted
 * fragment of `kept` (a request each, then its registration awaited), then a PUT renaming a
 * customer (which moves it between fragments' cells) is timed in `kept` and in `none` alternately,
 * through the gateway, each after a GET for its ETag (not timed).
 */
export async function measureNameCountWrites(
  baseUrl: string,
  databaseUrl: string,
  kept: Omit<Company, 'numbers'>,
  none: Omit<Company, 'numbers'>,
  samples: number,
): Promise<NameCountWrites> {
  const fragments = [...NAME_FIRST, ...NAME_SECOND].map((part) => part.toLowerCase());
  for (const fragment of fragments) {
    const { json } = await fetchJson(`${baseUrl}/v1/customer?${new URLSearchParams({ name: fragment, pageSize: '1' })}`, { headers: kept.headers });
    const [first] = json as Array<{ metadata: { totalCount: number } }>;
    await waitForNameCounts(databaseUrl, kept.id, fragment, first?.metadata.totalCount ?? 0);
  }
  const companies = await Promise.all([kept, none].map(async (c) => ({ ...c, numbers: await customerNumbers(baseUrl, c.headers, samples) })));
  const times: number[][] = [[], []];
  for (let i = 0; i < samples; i++) {
    const name = `${NAME_FIRST[i % NAME_FIRST.length]}${NAME_SECOND[(i * 5) % NAME_SECOND.length]} Bench ${i}`;
    for (const [index, company] of companies.entries()) times[index].push(await timedRename(baseUrl, company, company.numbers[i], name));
  }
  return { fragments: await keptFragments(databaseUrl, kept.id), keptP50Ms: round(quantile(times[0], 0.5), 1), noneP50Ms: round(quantile(times[1], 0.5), 1), samples };
}

async function keptFragments(databaseUrl: string, companyId: string): Promise<number> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_name_fragments WHERE company_id = $1`, [companyId]);
    return rows[0].n;
  } finally {
    await sql.end();
  }
}

async function fetchJson(url: string, init: RequestInit): Promise<{ json: unknown; etag: string | null }> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== 200 && response.status !== 204) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return { json: text === '' ? undefined : JSON.parse(text), etag: response.headers.get('etag') };
}

async function customerNumbers(baseUrl: string, headers: Record<string, string>, count: number): Promise<string[]> {
  const { json } = await fetchJson(`${baseUrl}/v1/customer?pageSize=${count}&pageNumber=3`, { headers });
  return (json as Array<{ number: string }>).map((c) => c.number);
}

async function timedRename(baseUrl: string, company: Company, number: string, name: string): Promise<number> {
  const url = `${baseUrl}/v1/customer/${encodeURIComponent(number)}`;
  const { etag } = await fetchJson(url, { headers: company.headers });
  const start = performance.now();
  await fetchJson(url, {
    method: 'PUT',
    headers: { ...company.headers, 'content-type': 'application/json', 'if-match': etag ?? '*' },
    body: JSON.stringify({ name }),
  });
  return performance.now() - start;
}
