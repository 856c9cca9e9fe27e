import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RunningSystem } from '@erp/dev';
import type { TestAuth } from '@erp/testing';
import { quantile } from '../framework/http';

const COMPANY = '1000001';

/** One kind of follow-up call, timed: how many, and its p50 / p99 / max in ms. */
export interface FollowUpTiming {
  case: string;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than the expected 201 (must be 0). */
  failed: number;
}

interface Driver {
  system: RunningSystem;
  auth: TestAuth;
  samples: number;
}

async function call(d: Driver, method: string, path: string, body?: unknown, form?: FormData): Promise<{ status: number; json: unknown; ms: number }> {
  const headers = await d.auth.headers({ company: COMPANY, applicationType: path.startsWith('/v1/') ? 'bench' : null });
  if (body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${d.system.baseUrl}${path}`, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const json: unknown = response.headers.get('content-type')?.includes('json') ? await response.json() : await response.text();
  return { status: response.status, json, ms: performance.now() - started };
}

function timing(name: string, ms: number[], failed: number): FollowUpTiming {
  const round = (value: number) => Math.round(value * 10) / 10;
  return { case: name, calls: ms.length, p50Ms: round(quantile(ms, 0.5)), p99Ms: round(quantile(ms, 0.99)), maxMs: round(Math.max(...ms)), failed };
}

const newCustomer = async (d: Driver, i: number) => ((await call(d, 'POST', '/v1/customer', { name: `Bench Flow ${i} AS`, currencyId: 'NOK' })).json as { number: string }).number;
const newInvoice = async (d: Driver) =>
  ((await call(d, 'POST', '/v1/supplierInvoice', { supplier: { number: 'S-1' }, currencyId: 'NOK', invoiceLines: [{ quantity: 1, unitPrice: '10.00' }] })).json as { referenceNumber: string }).referenceNumber;
const order = (d: Driver, customer: string) => call(d, 'POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: customer } });
function upload(d: Driver, invoice: string) {
  const form = new FormData();
  form.append('file', new Blob([randomBytes(256)], { type: 'application/pdf' }), 'scan.pdf');
  return call(d, 'POST', `/v1/supplierInvoice/${invoice}/Attachment`, undefined, form);
}

/** The follow-up call right after the create, `samples` times: the time of the follow-up only. */
async function followUps(d: Driver, name: string, create: (i: number) => Promise<string>, use: (id: string) => Promise<{ status: number; ms: number }>): Promise<FollowUpTiming> {
  const ms: number[] = [];
  let failed = 0;
  for (let i = 0; i < d.samples; i++) {
    const id = await create(i);
    const answer = await use(id);
    if (answer.status === 201) ms.push(answer.ms);
    else failed++;
  }
  return timing(name, ms, failed);
}

/**
 * The follow-up calls of the two create-then-use flows (docs/cross-service-reads.md): an order for
 * a customer, and an upload to a supplier invoice, each against its floor in the same phase: the
 * same call for a record already in the caller's copy (no internal call). `label` says whether the
 * consumers run.
 */
export async function measureFollowUps(d: Driver, label: string, known: { customer: string; invoice: string }): Promise<FollowUpTiming[]> {
  // Warm-up, not timed: the first calls of freshly started processes compile their code paths.
  await followUps({ ...d, samples: Math.min(30, d.samples) }, 'warm-up', (i) => newCustomer(d, i), (customer) => order(d, customer));
  await followUps({ ...d, samples: Math.min(30, d.samples) }, 'warm-up', () => newInvoice(d), (invoice) => upload(d, invoice));
  return [
    await followUps(d, `order, customer known (floor), ${label}`, async () => known.customer, (customer) => order(d, customer)),
    await followUps(d, `order right after its customer, ${label}`, (i) => newCustomer(d, i), (customer) => order(d, customer)),
    await followUps(d, `upload, invoice known (floor), ${label}`, async () => known.invoice, (invoice) => upload(d, invoice)),
    await followUps(d, `upload right after its invoice, ${label}`, () => newInvoice(d), (invoice) => upload(d, invoice)),
  ];
}

/** A customer and an invoice every service knows from their events (for the floor). */
export async function knownRecords(d: Driver): Promise<{ customer: string; invoice: string }> {
  const customer = await newCustomer(d, -1);
  const invoice = await newInvoice(d);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  return { customer, invoice };
}
