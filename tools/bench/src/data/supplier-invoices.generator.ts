import type { ClientBase } from 'pg';
import { advanceNumberCounters, copyRows, copyTimestamp, copyWithIndexesRebuilt, type CopyValue, vacuumAnalyze } from './copy-rows';
import { SeededRandom } from './random';

/** How many supplier invoices one company gets. */
export interface CompanyInvoices {
  companyId: string;
  count: number;
}

export interface LoadSupplierInvoicesOptions {
  companies: CompanyInvoices[];
  /** Same seed, same rows. Default 42. */
  seed?: number;
  /** Drop the secondary indexes during the load and rebuild them after. Default: from 200k rows. */
  rebuildIndexes?: boolean;
  log?: (line: string) => void;
}

export interface SupplierInvoicesLoadReport {
  invoices: number;
  lines: number;
  byCompany: Record<string, number>;
  millis: { copy: number; indexes: number; vacuum: number };
}

export const DOCUMENT_TYPE_MIX = [
  ['Invoice', 85],
  ['CreditAdj', 8],
  ['DebitAdj', 4],
  ['Prepayment', 3],
] as const;
// Recent invoices are still being processed; older ones are mostly paid (Closed).
const RECENT_STATUS_MIX = [['Open', 50], ['Balanced', 25], ['Hold', 10], ['Closed', 15]] as const;
const SETTLED_STATUS_MIX = [['Closed', 90], ['Open', 7], ['Hold', 2], ['Balanced', 1]] as const;
const RECENT_MS = 90 * 24 * 3600 * 1000;
const CURRENCIES = [['NOK', 85], ['SEK', 6], ['EUR', 6], ['USD', 3]] as const;
const ITEMS = ['Consulting hours', 'Office supplies', 'Freight', 'Software licence', 'Cleaning', 'Electricity', 'Rent', 'Spare parts'];

/** ~2,000 suppliers; supplier k has weight 1/k^0.7, so the largest holds ~3% of the invoices and the median ~0.02%. */
export const SUPPLIER_COUNT = 2000;
const SUPPLIER_SKEW = 0.7;
export const supplierNumber = (rank: number) => `S${String(rank).padStart(5, '0')}`;

// Invoices arrive over five years in internal_id order; most are modified within 120 days
// (approved, paid), a few much later (a correction).
const HISTORY_START = Date.UTC(2021, 0, 1);
const HISTORY_MS = 5 * 365 * 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

const INVOICE_COLUMNS = [
  'internal_id', 'company_id', 'reference_number', 'document_type', 'supplier_number', 'supplier_name', 'supplier_reference',
  'document_date', 'due_date', 'status', 'currency_id', 'amount', 'vat_amount', 'balance', 'description', 'created_at', 'last_modified_at',
] as const;
const LINE_COLUMNS = ['invoice_id', 'line_number', 'description', 'quantity', 'unit_price', 'amount'] as const;


const cents = (value: number) => (value / 100).toFixed(2);

/** Cumulative supplier weights, for a binary-search draw (2,000 linear steps per row would dominate the load). */
function supplierTable(): number[] {
  const cumulative: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= SUPPLIER_COUNT; rank++) cumulative.push((sum += 1 / rank ** SUPPLIER_SKEW));
  return cumulative;
}

function drawRank(cumulative: number[], roll: number): number {
  const target = roll * cumulative[cumulative.length - 1];
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > target) hi = mid;
    else lo = mid + 1;
  }
  return lo + 1;
}

export interface GeneratedInvoice {
  invoice: CopyValue[];
  lines: CopyValue[][];
}

/**
 * The invoices with their lines, companies interleaved as in a shared table (a weighted draw by
 * how many rows each company still needs), internal ids from `firstId` on, each company's
 * reference numbers `000001`, `000002`, ... in order (or from `firstReferences[c]`). Amounts are consistent with the service's
 * rules: line amount = quantity x unit price, amount = lines + VAT, balance 0 once Closed.
 */
export function* supplierInvoiceRows(companies: CompanyInvoices[], seed: number, firstId: number, firstReferences?: number[]): Generator<GeneratedInvoice> {
  const random = new SeededRandom(seed);
  const suppliers = supplierTable();
  const remaining = companies.map((c) => c.count);
  const next = companies.map((_, c) => firstReferences?.[c] ?? 1);
  const total = remaining.reduce((a, b) => a + b, 0);
  const end = HISTORY_START + HISTORY_MS;
  for (let i = 0; i < total; i++) {
    const c = random.takeFrom(remaining, total - i);
    const id = firstId + i;
    const reference = String(next[c]++).padStart(6, '0');
    const rank = drawRank(suppliers, random.next());
    const created = HISTORY_START + Math.floor((i / total) * HISTORY_MS) + random.int(0, 59_999);
    const modified = random.next() < 0.97 ? Math.min(end, created + random.int(0, 120 * DAY_MS)) : created + random.int(1, end - created);
    const status = random.weighted(end - created < RECENT_MS ? RECENT_STATUS_MIX : SETTLED_STATUS_MIX);
    const lineCount = random.int(1, 3);
    const lines: CopyValue[][] = [];
    let net = 0;
    for (let n = 1; n <= lineCount; n++) {
      const quantity = random.int(1, 20);
      const unitCents = random.int(100, 500_000);
      net += quantity * unitCents;
      lines.push([id, n, random.pick(ITEMS), quantity, cents(unitCents), cents(quantity * unitCents)]);
    }
    const vat = Math.round(net / 4);
    const documentDate = new Date(created).toISOString().slice(0, 10);
    yield {
      invoice: [
        id,
        companies[c].companyId,
        reference,
        random.weighted(DOCUMENT_TYPE_MIX),
        supplierNumber(rank),
        `Supplier ${rank} AS`,
        random.next() < 0.8 ? `INV-${random.digits(7)}` : null,
        documentDate,
        new Date(created + 30 * DAY_MS).toISOString().slice(0, 10),
        status,
        random.weighted(CURRENCIES),
        cents(net + vat),
        cents(vat),
        status === 'Closed' ? '0.00' : cents(net + vat),
        random.next() < 0.5 ? `Invoice from supplier ${rank}` : null,
        copyTimestamp(created),
        copyTimestamp(modified),
      ],
      lines,
    };
  }
}

/**
 * Loads supplier invoices and their lines (1-3 each) into a supplier-invoices-v1 database
 * (migrated) with COPY, deterministic for a seed: ids are given by the load (COPY writes the
 * identity column) so lines can name their invoice, then the identity and each company's number
 * counter are set past what was loaded (so POST keeps working), then VACUUM ANALYZE.
 */
export async function loadSupplierInvoices(client: ClientBase, options: LoadSupplierInvoicesOptions): Promise<SupplierInvoicesLoadReport> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 42;
  const total = options.companies.reduce((sum, c) => sum + c.count, 0);
  const rebuild = options.rebuildIndexes ?? total >= 200_000;
  const millis = { copy: 0, indexes: 0, vacuum: 0 };
  const { rows: maxRows } = await client.query<{ max: string }>(`SELECT coalesce(max(internal_id), 0)::text AS max FROM supplier_invoices`);
  const firstId = Number(maxRows[0].max) + 1;
  // A company loaded again (the noise company of a second run in one database) continues its numbers.
  const firstReferences: number[] = [];
  for (const company of options.companies) {
    const { rows: last } = await client.query<{ last: string }>(
      `SELECT coalesce(max(reference_number::bigint), 0)::text AS last FROM supplier_invoices WHERE company_id = $1 AND reference_number ~ '^[0-9]+$'`,
      [company.companyId],
    );
    firstReferences.push(Number(last[0].last) + 1);
  }

  log(`copying ${total} supplier invoices`);
  // Two passes over the same seeded rows: the invoices first (the lines' foreign key needs them).
  const loaded = await copyWithIndexesRebuilt(client, 'supplier_invoices', rebuild, log, async () => ({
    invoices: await copyRows(client, 'supplier_invoices', INVOICE_COLUMNS, mapRows(supplierInvoiceRows(options.companies, seed, firstId, firstReferences), (g) => [g.invoice])),
    lines: await copyRows(client, 'supplier_invoice_lines', LINE_COLUMNS, mapRows(supplierInvoiceRows(options.companies, seed, firstId, firstReferences), (g) => g.lines)),
  }));
  const { invoices, lines } = loaded.result;
  await client.query(`SELECT setval(pg_get_serial_sequence('supplier_invoices', 'internal_id'), (SELECT max(internal_id) FROM supplier_invoices))`);
  millis.copy = loaded.copyMillis;
  millis.indexes = loaded.indexMillis;
  const companyIds = options.companies.map((c) => c.companyId);
  await advanceNumberCounters(client, { counters: 'supplier_invoice_number_counters', table: 'supplier_invoices', column: 'reference_number' }, companyIds);
  // The count cells the COPY's triggers filled need statistics and a visibility map too.
  millis.vacuum = await vacuumAnalyze(client, ['supplier_invoices', 'supplier_invoice_lines', 'supplier_invoice_buckets']);

  const counted = await client.query<{ company_id: string; n: number }>(
    `SELECT company_id, count(*)::int AS n FROM supplier_invoices WHERE company_id = ANY($1) GROUP BY 1`,
    [companyIds],
  );
  const byCompany = Object.fromEntries(counted.rows.map((r) => [r.company_id, r.n]));
  log(`loaded ${invoices} supplier invoices, ${lines} lines in ${millis.copy} ms (+${millis.indexes} ms indexes, ${millis.vacuum} ms vacuum)`);
  return { invoices, lines, byCompany, millis };
}

function* mapRows<T>(source: Iterable<T>, rows: (item: T) => CopyValue[][]): Generator<CopyValue[]> {
  for (const item of source) yield* rows(item);
}
