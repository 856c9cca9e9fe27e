import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { round, type LoadMeasurement } from '../../framework/load';
import { startServiceVariant } from '../../framework/service-variant';
import { fetchBody, quantile } from '../../framework/http';
import { check, type BenchContext, type ScenarioCase, type TargetCheck } from '../../framework/scenario';
import { NAME_FIRST, NAME_SECOND } from '../../data/customers.generator';

/** What the writer saw in one phase: PUT latencies, and how many searches ran beside it. */
export interface ChurnPhase {
  measurement: LoadMeasurement;
  maxMs: number;
  searches: number;
  /** p50 ms of the GET before each PUT (not in the PUT's figures). */
  getP50Ms: number;
}

export interface SearchChurn {
  /** The two-character fragments the searchers cycle through, and the share of names each matches (min, max). */
  fragments: string[];
  shares: [number, number];
  alone: ChurnPhase;
  countsOff: ChurnPhase;
  countsOn: ChurnPhase;
  /** Fragments registered while the counts-on churn ran. */
  registrations: number;
}

/** Two-character fragments in 6-20 % of the company's names (a 2 % sample), as a search screen's first keystrokes. */
async function broadFragments(databaseUrl: string, companyId: string): Promise<{ fragments: string[]; shares: [number, number] }> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ fragment: string; share: number }>(
      `WITH names AS (SELECT internal_id, lower(name) AS n FROM customers WHERE company_id = $1 AND internal_id % 50 = 0)
       SELECT fragment, count(*)::float / (SELECT count(*) FROM names) AS share
       FROM (SELECT DISTINCT internal_id, substr(n, i, 2) AS fragment FROM names, generate_series(1, length(n) - 1) i) pairs
       WHERE fragment ~ '^[a-z]{2}$' GROUP BY fragment HAVING count(*)::float / (SELECT count(*) FROM names) BETWEEN 0.06 AND 0.2
       ORDER BY fragment`,
      [companyId],
    );
    const shares = rows.map((r) => r.share);
    return { fragments: rows.map((r) => r.fragment), shares: [round(Math.min(...shares), 3), round(Math.max(...shares), 3)] };
  } finally {
    await sql.end();
  }
}

/** Searches `name=<fragment>` page 1, cycling from `offset`, until `stopAt`; returns how many. */
async function searcher(url: string, headers: Record<string, string>, fragments: string[], offset: number, stopAt: number): Promise<number> {
  let done = 0;
  for (let i = offset; performance.now() < stopAt; i++) {
    await fetchBody(`${url}/v1/customer?${new URLSearchParams({ name: fragments[i % fragments.length], pageSize: '100' })}`, headers);
    done++;
  }
  return done;
}

/** GET then PUT with If-Match, renaming customers in turn, until `stopAt`; returns each PUT's and each GET's ms. */
async function writer(url: string, headers: Record<string, string>, numbers: string[], stopAt: number, round0: number): Promise<{ times: number[]; gets: number[] }> {
  const times: number[] = [];
  const gets: number[] = [];
  for (let i = 0; performance.now() < stopAt; i++) {
    const customer = `${url}/v1/customer/${encodeURIComponent(numbers[i % numbers.length])}`;
    const getStart = performance.now();
    const read = await fetch(customer, { headers });
    await read.text();
    gets.push(performance.now() - getStart);
    if (read.status !== 200) throw new Error(`GET ${customer} answered ${read.status}`);
    const name = `${NAME_FIRST[(i + round0) % NAME_FIRST.length]}${NAME_SECOND[(i * 5 + round0) % NAME_SECOND.length]} Churn ${i}`;
    const start = performance.now();
    const put = await fetch(customer, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'if-match': read.headers.get('etag') ?? '*' },
      body: JSON.stringify({ name }),
    });
    const body = await put.text();
    times.push(performance.now() - start);
    if (put.status !== 200 && put.status !== 204) throw new Error(`PUT ${customer} answered ${put.status}: ${body.slice(0, 300)}`);
  }
  return { times, gets };
}

async function phase(label: string, url: string, companyHeaders: { read: Record<string, string>; write: Record<string, string> }, numbers: string[], fragments: string[], searchers: number, seconds: number, round0: number): Promise<ChurnPhase> {
  const stopAt = performance.now() + seconds * 1000;
  const [{ times, gets }, ...searches] = await Promise.all([
    writer(url, companyHeaders.write, numbers, stopAt, round0),
    ...Array.from({ length: searchers }, (_, s) => searcher(url, companyHeaders.read, fragments, Math.floor((s * fragments.length) / searchers), stopAt)),
  ]);
  const total = times.reduce((a, b) => a + b, 0);
  const measurement: LoadMeasurement = {
    target: label,
    requests: times.length,
    rps: round(times.length / seconds, 1),
    p50Ms: round(quantile(times, 0.5), 1),
    p99Ms: round(quantile(times, 0.99), 1),
    meanMs: round(total / times.length, 1),
    errors: 0,
    non2xx: 0,
    bytesPerSecond: 0,
    durationSeconds: seconds,
  };
  return { measurement, maxMs: round(Math.max(...times), 1), searches: searches.reduce((a, b) => a + b, 0), getP50Ms: round(quantile(gets, 0.5), 1) };
}

async function maxFragmentId(databaseUrl: string): Promise<number> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ id: number }>(`SELECT coalesce(max(id), 0)::int AS id FROM customer_name_fragments`);
    return rows[0].id;
  } finally {
    await sql.end();
  }
}

/**
 * Issue 31: one writer (GET then PUT with If-Match, the PUT timed) for `seconds` alone, then beside
 * two read-only clients cycling broad two-character name fragments, once against a customers-v1
 * with name counts switched off (`CUSTOMER_NAME_COUNT_MIN_MATCHES=1000000000`) and once with the
 * defaults, each a process of its own on the same database, started here so that both run the same
 * build; the bench's own customers-v1 stays idle meanwhile.
 */
export async function measureSearchChurn(
  context: BenchContext,
  companyId: string,
  headers: { read: Record<string, string>; write: Record<string, string> },
  seconds: number,
): Promise<SearchChurn> {
  const databaseUrl = context.databaseUrls['customers-v1'];
  const { fragments, shares } = await broadFragments(databaseUrl, companyId);
  if (fragments.length === 0) throw new Error('no broad two-character fragment in the names');
  const on = await startServiceVariant(context, 'customers-v1', 'name counts on', {});
  const off = await startServiceVariant(context, 'customers-v1', 'name counts off', { CUSTOMER_NAME_COUNT_MIN_MATCHES: '1000000000' });
  try {
    const numbers = ((JSON.parse(await fetchBody(`${on.url}/v1/customer?pageSize=200&pageNumber=5`, headers.read)) as Array<{ number: string }>)).map((c) => c.number);
    const alone = await phase('writer alone', on.url, headers, numbers, fragments, 0, seconds, 0);
    context.log(`filtered-paging churn: writer alone p50 ${alone.measurement.p50Ms} ms, p99 ${alone.measurement.p99Ms} ms, max ${alone.maxMs} ms, ${alone.measurement.requests} writes, GET p50 ${alone.getP50Ms} ms`);
    const countsOff = await phase('searches, counts off', off.url, headers, numbers, fragments, 2, seconds, 1);
    context.log(`filtered-paging churn: counts off p50 ${countsOff.measurement.p50Ms} ms, p99 ${countsOff.measurement.p99Ms} ms, max ${countsOff.maxMs} ms`);
    const before = await maxFragmentId(databaseUrl);
    const countsOn = await phase('searches, counts on', on.url, headers, numbers, fragments, 2, seconds, 2);
    const registrations = (await maxFragmentId(databaseUrl)) - before;
    context.log(`filtered-paging churn: counts on p50 ${countsOn.measurement.p50Ms} ms, p99 ${countsOn.measurement.p99Ms} ms, max ${countsOn.maxMs} ms, ${registrations} registrations`);
    return { fragments, shares, alone, countsOff, countsOn, registrations };
  } finally {
    await Promise.all([on.stop(), off.stop()]);
  }
}

export const CHURN_CASE = 'writes during name search churn';

/** The report's case: the three phases as measurements, the maxima and counts as facts. */
export function churnCase(churn: SearchChurn): ScenarioCase {
  const phases = [churn.alone, churn.countsOff, churn.countsOn];
  return {
    name: CHURN_CASE,
    facts: {
      fragments: churn.fragments.length,
      registrations: churn.registrations,
      'max ms alone': churn.alone.maxMs,
      'max ms counts off': churn.countsOff.maxMs,
      'max ms counts on': churn.countsOn.maxMs,
      'searches counts off': churn.countsOff.searches,
      'searches counts on': churn.countsOn.searches,
      'GET p50 ms alone / counts off / counts on': phases.map((p) => p.getP50Ms).join(' / '),
    },
    measurements: phases.map((p) => p.measurement),
    ratios: {
      'p99 counts on / counts off': round(churn.countsOn.measurement.p99Ms / churn.countsOff.measurement.p99Ms, 2),
      'p99 counts on / alone': round(churn.countsOn.measurement.p99Ms / churn.alone.measurement.p99Ms, 2),
    },
    memory: {},
  };
}

/** Issue 31's targets: the writer's p99 within 1.5x of the counts-off churn, no write over 1 s. */
export function churnTargets(c: ScenarioCase): TargetCheck[] {
  return [
    check(`${CHURN_CASE}: writer p99 counts on / counts off`, c.ratios['p99 counts on / counts off'], '<=', 1.5),
    check(`${CHURN_CASE}: slowest write with counts on (ms)`, Number(c.facts['max ms counts on']), '<=', 1000),
  ];
}
