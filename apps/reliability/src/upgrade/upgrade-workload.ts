import { randomBytes } from 'node:crypto';
import { type UpgradeClient } from './upgrade-client';

export const ITEMS = ['UPG-BOLT', 'UPG-NUT'];

/** An order the test wrote, and what it must read as. */
interface OrderRecord {
  path: string;
  etag: string;
  quantities: [number, number];
  prices: [string, string];
}

/** What one worker keeps: its customer, its invoice, its name fragment and what it wrote. */
export interface Worker {
  index: number;
  customer: string;
  invoice: string;
  fragment: string;
  named: number;
  orders: OrderRecord[];
  attachments: string[];
  /** The end of the worker's current round or check (see `exclusively`). */
  turn: Promise<void>;
}

/**
 * Runs `work` once no other round or check of this worker runs. A check that read a record while
 * the worker's own write of it was under way would see the new value before the worker had
 * recorded it (a PATCH committed, its 202 not yet back) and report a wrong answer that is not.
 * The other workers keep writing meanwhile: the system stays under load.
 */
export function exclusively<T>(worker: Worker, work: () => Promise<T>): Promise<T> {
  const run = worker.turn.then(work);
  worker.turn = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** Every order version written (SALESORDER_CREATED / _UPDATED), for the webhooks check. */
export const writtenVersions: Array<{ orderId: string; version: string }> = [];

const cents = (quantity: number, price: string) => Math.round(quantity * Number(price) * 100);
const totalOf = (order: OrderRecord) => (cents(order.quantities[0], order.prices[0]) + cents(order.quantities[1], order.prices[1])) / 100;
const versionOf = (etag: string) => etag.replace(/^W\//, '').replace(/"/g, '');

function recordWrite(response: Response, path: string): string {
  const etag = response.headers.get('etag') ?? '';
  writtenVersions.push({ orderId: path.split('/').pop() as string, version: versionOf(etag) });
  return etag;
}

/** One round of a worker: writes of every kind, and reads that check them at once. */
export async function workerRound(client: UpgradeClient, worker: Worker, round: number): Promise<void> {
  // A customer with the worker's fragment, then the name search's total.
  if ((await client.call('POST', '/v1/customer', [201], { body: { name: `Upgrade ${worker.fragment} ${round}` } }))) worker.named++;
  const named = await client.call('GET', `/v1/customer?name=${worker.fragment}&pageSize=1`, [200]);
  if (named) {
    const body = (await named.json()) as Array<{ metadata?: { totalCount?: number } }>;
    const total = body[0]?.metadata?.totalCount;
    if (total !== worker.named) client.fail('wrong answer', `name=${worker.fragment}: totalCount ${total}, wrote ${worker.named}`);
  }

  // A new order of two lines, read back.
  const order: OrderRecord = { path: '', etag: '', quantities: [1 + (round % 5), 2], prices: ['12.50', `${3 + (round % 7)}.25`] };
  const created = await client.call('POST', '/api/v3/SalesOrders', [201], {
    body: { type: 'SO', customer: { id: worker.customer }, orderLines: ITEMS.map((inventoryId, i) => ({ inventoryId, quantity: order.quantities[i], unitPrice: order.prices[i] })) },
  });
  if (created) {
    order.path = created.headers.get('location') ?? '';
    order.etag = recordWrite(created, order.path);
    worker.orders.push(order);
    await checkOrder(client, order);
  }

  // A change of an earlier order's first line, by whichever version answers.
  const earlier = worker.orders[round % worker.orders.length];
  if (earlier) {
    const quantity = earlier.quantities[0] + 1;
    const patched = await client.call('PATCH', earlier.path, [202], {
      body: { lines: [{ operation: 'update', lineId: 1, quantity }] },
      headers: { 'if-match': earlier.etag },
    });
    if (patched) {
      earlier.quantities[0] = quantity;
      earlier.etag = recordWrite(patched, earlier.path);
      await checkOrder(client, earlier);
    }
  }

  // Every few rounds, a file on the worker's invoice.
  if (round % 3 === 0) {
    const form = new FormData();
    form.append('file', new Blob([randomBytes(128)], { type: 'application/pdf' }), `scan-${worker.index}-${round}.pdf`);
    const uploaded = await client.call('POST', `/v1/supplierInvoice/${worker.invoice}/Attachment`, [201], { form });
    if (uploaded) worker.attachments.push(((await uploaded.json()) as { id: string }).id);
  }
}

/** The order's total as read now equals the total of the lines the test wrote. */
export async function checkOrder(client: UpgradeClient, order: OrderRecord): Promise<void> {
  const read = await client.call('GET', `${order.path}?expand=lines`, [200]);
  if (!read) return;
  const body = (await read.json()) as { totals?: { orderTotal?: number }; lines?: Array<{ quantity: number }> };
  const expected = totalOf(order);
  if (Math.round((body.totals?.orderTotal ?? NaN) * 100) !== Math.round(expected * 100)) {
    client.fail('wrong answer', `${order.path}: orderTotal ${body.totals?.orderTotal}, lines give ${expected}`);
  }
  if (body.lines?.[0]?.quantity !== order.quantities[0]) client.fail('wrong answer', `${order.path}: line 1 quantity ${body.lines?.[0]?.quantity}, wrote ${order.quantities[0]}`);
}

/**
 * Everything written so far, by either version at any earlier stage, read again through the
 * gateways of now: every order's total, every fragment's count, every invoice's attachments (which
 * the previous release learns from events: given a few seconds).
 */
export async function verifyEverything(client: UpgradeClient, workers: Worker[]): Promise<void> {
  for (const worker of workers) {
    // Between two of the worker's rounds: what it recorded is what it wrote.
    const uploaded = await exclusively(worker, async () => {
      for (const order of worker.orders) await checkOrder(client, order);
      const named = await client.call('GET', `/v1/customer?name=${worker.fragment}&pageSize=1`, [200]);
      const total = named ? ((await named.json()) as Array<{ metadata?: { totalCount?: number } }>)[0]?.metadata?.totalCount : undefined;
      if (named && total !== worker.named) client.fail('wrong answer', `name=${worker.fragment}: totalCount ${total}, wrote ${worker.named}`);
      return [...worker.attachments];
    });
    // The uploads answered so far (the worker goes on meanwhile; the list only grows).
    let listed: string[] = [];
    for (let deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
      const invoice = await client.call('GET', `/v1/supplierInvoice/${worker.invoice}`, [200]);
      listed = invoice ? ((await invoice.json()) as { attachments: Array<{ id: string }> }).attachments.map((a) => a.id) : [];
      if (uploaded.every((id) => listed.includes(id))) break;
    }
    const missing = uploaded.filter((id) => !listed.includes(id));
    if (missing.length > 0) client.fail('wrong answer', `invoice ${worker.invoice} does not list ${missing.join(', ')}`);
  }
}
