import { A, FULL, type Harness, jsonHeaders, putInventoryItems } from '../support/system';

/** 10 x 100 in full; 10 x 20 in CI. The exact-count assertion is the same. */
export const CONTENTION = { clients: 10, cyclesPerClient: FULL ? 100 : 20 };

interface Outcome {
  applied: number;
  conflicts: number;
  otherStatuses: number[];
}

/**
 * `clients` concurrent read-modify-write loops: read the value and its ETag, write value + 1 with
 * If-Match, retry from the read on 412. Every successful write is one increment, so the final value
 * must equal the number of successes: a lost update would show as a smaller number.
 */
async function contend(
  read: () => Promise<{ value: number; etag: string }>,
  write: (next: number, etag: string) => Promise<number>,
  successStatus: number,
): Promise<Outcome> {
  const outcome: Outcome = { applied: 0, conflicts: 0, otherStatuses: [] };
  const client = async () => {
    for (let done = 0; done < CONTENTION.cyclesPerClient; ) {
      const { value, etag } = await read();
      const status = await write(value + 1, etag);
      if (status === successStatus) {
        done++;
        outcome.applied++;
      } else if (status === 412) outcome.conflicts++;
      else {
        outcome.otherStatuses.push(status);
        if (outcome.otherStatuses.length > 20) throw new Error(`unexpected statuses ${outcome.otherStatuses.join(',')}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONTENTION.clients }, client));
  return outcome;
}

export function describeContention(harness: () => Harness, figures: Record<string, unknown>): void {
  const expected = () => CONTENTION.clients * CONTENTION.cyclesPerClient;

  it(`v3 sales order: ${CONTENTION.clients} clients x ${CONTENTION.cyclesPerClient} PATCH cycles with If-Match end with exactly that many changes`, async () => {
    const h = harness();
    const headers = { ...(await jsonHeaders(h, A)) };
    delete headers['ipp-application-type'];
    const customer = await h.call('/v1/customer', { method: 'POST', headers: await jsonHeaders(h, A), body: JSON.stringify({ name: 'Contention Customer' }) });
    const { number } = (await customer.json()) as { number: string };
    await putInventoryItems(h.call, headers, ['C']);
    let created: Response;
    for (;;) {
      created = await h.call('/api/v3/SalesOrders', {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'SO', customer: { id: number }, description: '0', orderLines: [{ inventoryId: 'C', quantity: 1, unitPrice: 1 }] }),
      });
      if (created.status !== 400) break;
      await created.text();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    await created.text();
    const started = Date.now();
    const outcome = await contend(
      async () => {
        const response = await h.call(location, { headers });
        const order = (await response.json()) as { description: string };
        return { value: Number(order.description), etag: response.headers.get('etag') ?? '' };
      },
      async (next, etag) => {
        const response = await h.call(location, { method: 'PATCH', headers: { ...headers, 'if-match': etag }, body: JSON.stringify({ description: String(next) }) });
        await response.arrayBuffer();
        return response.status;
      },
      202, // the v3 document's status for a PATCH
    );
    const final = (await (await h.call(location, { headers })).json()) as { description: string };
    figures['contention.v3'] = { ...outcome, final: Number(final.description), ms: Date.now() - started };
    expect(outcome.otherStatuses).toEqual([]);
    expect(outcome.applied).toBe(expected());
    expect(Number(final.description)).toBe(expected());
  }, 600_000);

  it(`v1 customer: ${CONTENTION.clients} clients x ${CONTENTION.cyclesPerClient} PUT cycles with If-Match end with exactly that many changes`, async () => {
    const h = harness();
    const headers = await jsonHeaders(h, A);
    const created = await h.call('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name: 'Counter 0' }) });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    await created.text();
    const started = Date.now();
    const outcome = await contend(
      async () => {
        const response = await h.call(location, { headers });
        const customer = (await response.json()) as { name: string };
        return { value: Number(customer.name.replace('Counter ', '')), etag: response.headers.get('etag') ?? '' };
      },
      async (next, etag) => {
        const response = await h.call(location, { method: 'PUT', headers: { ...headers, 'if-match': etag }, body: JSON.stringify({ name: `Counter ${next}` }) });
        await response.arrayBuffer();
        return response.status;
      },
      204,
    );
    const final = (await (await h.call(location, { headers })).json()) as { name: string };
    figures['contention.v1'] = { ...outcome, final: final.name, ms: Date.now() - started };
    expect(outcome.otherStatuses).toEqual([]);
    expect(outcome.applied).toBe(expected());
    expect(final.name).toBe(`Counter ${expected()}`);
  }, 600_000);
}
