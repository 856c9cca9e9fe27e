import type { ClientBase } from 'pg';
import { advanceNumberCounters, copyRows, copyTimestamp, copyWithIndexesRebuilt, type CopyValue, vacuumAnalyze } from './copy-rows';
import { SeededRandom } from './random';

/** How many customers one company gets. */
export interface CompanyCustomers {
  companyId: string;
  count: number;
}

export interface LoadCustomersOptions {
  companies: CompanyCustomers[];
  /** Same seed, same rows. Default 42. */
  seed?: number;
  /**
   * Drop the table's secondary indexes during the load and rebuild them afterwards from their own
   * definitions (`pg_get_indexdef`): several times faster for large loads. Default: when loading
   * 200k rows or more.
   */
  rebuildIndexes?: boolean;
  log?: (line: string) => void;
}

export interface LoadReport {
  rows: number;
  byCompany: Record<string, number>;
  /** Rows per company and status, as loaded: lets a scenario know its result sizes up front. */
  byStatus: Record<string, Record<string, number>>;
  millis: { copy: number; indexes: number; vacuum: number };
}

export const STATUS_MIX = [
  ['Active', 80],
  ['Inactive', 10],
  ['OnHold', 5],
  ['CreditHold', 3],
  ['OneTime', 2],
] as const;

const FIRST_NUMBER = 10001;
/** The parts generated names are made of (first + second + legal form): the bench's name searches use them. */
export const NAME_FIRST = ['Nord', 'Vest', 'Fjell', 'Sol', 'Berg', 'Elve', 'Skog', 'Havn', 'Lys', 'Stein', 'Vik', 'Dal', 'Bakke', 'Strand', 'Is', 'Mo'];
export const NAME_SECOND = ['bygg', 'handel', 'data', 'transport', 'regnskap', 'mekanikk', 'elektro', 'design', 'fisk', 'tre', 'maling', 'rør', 'energi', 'media'];
const NAME_FORM = ['AS', 'AS', 'AS', 'ASA', 'ANS', 'DA', 'ENK', 'AB', 'GmbH', 'Ltd'];
const STREETS = ['Storgata', 'Kirkeveien', 'Strandveien', 'Industrivegen', 'Sjøgata', 'Parkveien', 'Skolegata', 'Torget', 'Bryggen', 'Løkkeveien'];
const CITIES = [
  ['0150', 'Oslo'], ['5003', 'Bergen'], ['7010', 'Trondheim'], ['4006', 'Stavanger'], ['9008', 'Tromsø'],
  ['3015', 'Drammen'], ['4610', 'Kristiansand'], ['1606', 'Fredrikstad'], ['2317', 'Hamar'], ['8006', 'Bodø'],
] as const;
const COUNTRIES: ReadonlyArray<readonly [{ id: string; name: string }, number]> = [
  [{ id: 'NO', name: 'Norway' }, 85],
  [{ id: 'SE', name: 'Sweden' }, 7],
  [{ id: 'DK', name: 'Denmark' }, 4],
  [{ id: 'DE', name: 'Germany' }, 4],
];
const CURRENCY_OF: Record<string, string> = { NO: 'NOK', SE: 'SEK', DK: 'DKK', DE: 'EUR' };
const GIVEN = ['Kari', 'Ola', 'Ingrid', 'Lars', 'Nora', 'Jonas', 'Emma', 'Henrik', 'Sofie', 'Magnus', 'Ida', 'Erik'];
const FAMILY = ['Hansen', 'Johansen', 'Olsen', 'Larsen', 'Andersen', 'Pedersen', 'Nilsen', 'Kristiansen', 'Jensen', 'Berg'];
const CREDIT_TERMS: ReadonlyArray<readonly [{ id: string; description: string }, number]> = [
  [{ id: '14', description: '14 days' }, 30],
  [{ id: '30', description: '30 days' }, 50],
  [{ id: '60', description: '60 days' }, 10],
  [{ id: 'CASH', description: 'Cash on delivery' }, 10],
];

const COLUMNS = [
  'company_id', 'number', 'name', 'status', 'main_address', 'main_contact', 'corporate_id',
  'vat_registration_id', 'currency_id', 'credit_terms', 'created_at', 'last_modified_at',
] as const;

// Customers are created over five years, in internal_id order; some were modified later.
const HISTORY_START = Date.UTC(2021, 0, 1);
const HISTORY_MS = 5 * 365 * 24 * 3600 * 1000;


/**
 * The rows, companies interleaved as they would be in a shared table (a weighted draw by how
 * many rows each company still needs), each company numbered 10001, 10002, ... in order.
 */
export function* customerRows(companies: CompanyCustomers[], seed: number): Generator<CopyValue[]> {
  const random = new SeededRandom(seed);
  const remaining = companies.map((c) => c.count);
  const next = companies.map(() => FIRST_NUMBER);
  const total = remaining.reduce((a, b) => a + b, 0);
  for (let i = 0; i < total; i++) {
    const c = random.takeFrom(remaining, total - i);
    const number = next[c]++;
    const name = `${random.pick(NAME_FIRST)}${random.pick(NAME_SECOND)} ${random.pick(NAME_FORM)}`;
    const country = random.weighted(COUNTRIES);
    const [postalCode, city] = random.pick(CITIES);
    const given = random.pick(GIVEN);
    const family = random.pick(FAMILY);
    const corporateId = random.digits(9);
    const created = HISTORY_START + Math.floor((i / total) * HISTORY_MS) + random.int(0, 59_999);
    const modified = random.next() < 0.3 ? created + random.int(1, HISTORY_START + HISTORY_MS - created) : created;
    yield [
      companies[c].companyId,
      String(number),
      `${name} ${number}`,
      random.weighted(STATUS_MIX),
      JSON.stringify({
        addressLine1: `${random.pick(STREETS)} ${random.int(1, 120)}`,
        addressLine2: random.next() < 0.2 ? `Postboks ${random.int(1, 999)}` : null,
        postalCode,
        city,
        country,
      }),
      JSON.stringify({
        name: `${given} ${family}`,
        email: `${given}.${family}@example.com`.toLowerCase(),
        phone1: `+47 ${random.digits(8)}`,
      }),
      corporateId,
      random.next() < 0.9 ? `${country.id}${corporateId}MVA` : null,
      CURRENCY_OF[country.id],
      JSON.stringify(random.weighted(CREDIT_TERMS)),
      copyTimestamp(created),
      copyTimestamp(modified),
    ];
  }
}

/**
 * Loads customers into a customers-v1 database (migrated) with COPY, deterministic for a seed,
 * then sets each company's number counter past what was loaded (so POST keeps working) and runs
 * VACUUM ANALYZE (statistics, and the visibility map that index-only scans need).
 */
export async function loadCustomers(client: ClientBase, options: LoadCustomersOptions): Promise<LoadReport> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 42;
  const total = options.companies.reduce((sum, c) => sum + c.count, 0);
  const rebuild = options.rebuildIndexes ?? total >= 200_000;
  const millis = { copy: 0, indexes: 0, vacuum: 0 };

  log(`copying ${total} customers`);
  const loaded = await copyWithIndexesRebuilt(client, 'customers', rebuild, log, () => copyRows(client, 'customers', COLUMNS, customerRows(options.companies, seed)));
  const rows = loaded.result;
  millis.copy = loaded.copyMillis;
  millis.indexes = loaded.indexMillis;
  const companyIds = options.companies.map((c) => c.companyId);
  await advanceNumberCounters(client, { counters: 'customer_number_counters', table: 'customers', column: 'number' }, companyIds);
  // The list's bucket counts, filled by the COPY's triggers: statistics and visibility map as well.
  millis.vacuum = await vacuumAnalyze(client, ['customers', 'customer_list_buckets', 'customer_time_buckets']);

  const counted = await client.query<{ company_id: string; status: string; n: number }>(
    `SELECT company_id, status, count(*)::int AS n FROM customers WHERE company_id = ANY($1) GROUP BY 1, 2`,
    [options.companies.map((c) => c.companyId)],
  );
  const byCompany: Record<string, number> = {};
  const byStatus: Record<string, Record<string, number>> = {};
  for (const r of counted.rows) {
    byCompany[r.company_id] = (byCompany[r.company_id] ?? 0) + r.n;
    (byStatus[r.company_id] ??= {})[r.status] = r.n;
  }
  log(`loaded ${rows} customers in ${millis.copy} ms (+${millis.indexes} ms indexes, ${millis.vacuum} ms vacuum)`);
  return { rows, byCompany, byStatus, millis };
}
