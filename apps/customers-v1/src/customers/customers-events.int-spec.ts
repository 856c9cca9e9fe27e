import { TOPICS, validateEnvelope } from '@erp/contracts';
import { TopicReader, PATIENCE_MS } from '@erp/testing';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const A = '1000001';
let t: CustomersTestApp;
let headers: Record<string, string>;

interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  event_type: string;
  payload: {
    id: string;
    type: string;
    source: string;
    companyId: string;
    subject: string;
    time: string;
    data: Record<string, unknown>;
  };
}

async function outboxRows(): Promise<OutboxRow[]> {
  return (await t.sql.query<OutboxRow>(`SELECT id, topic, message_key, event_type, payload FROM outbox ORDER BY sequence`)).rows;
}

function send(method: 'POST' | 'PUT', path: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return t.http.request(path, {
    method,
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function waitFor(description: string, condition: () => boolean, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('customers-v1 events: written with the change, published after it', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp();
    headers = await t.auth.headers({ company: A });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('writes CUSTOMER_CREATED with the created customer in the same transaction as POST', async () => {
    const before = (await outboxRows()).length;
    const response = await send('POST', '/v1/customer', { name: 'Evented AS', currencyId: 'NOK', status: 'OnHold' });
    expect(response.status).toBe(201);
    const customer = (await response.json()) as { number: string; timeStamp: string; lastModifiedDateTime: string };

    const rows = (await outboxRows()).slice(before);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.event_type).toBe('CUSTOMER_CREATED');
    expect(row!.topic).toBe(`${t.topicPrefix}${TOPICS.customers}`);
    expect(row!.message_key).toBe(`${A}:${customer.number}`);
    expect(row!.payload).toMatchObject({
      id: row!.id,
      type: 'CUSTOMER_CREATED',
      source: 'customers-v1',
      companyId: A,
      subject: customer.number,
      time: `${customer.lastModifiedDateTime}Z`,
      data: {
        number: customer.number,
        name: 'Evented AS',
        status: 'OnHold',
        currencyId: 'NOK',
        version: customer.timeStamp,
        lastModifiedDateTime: customer.lastModifiedDateTime,
        link: response.headers.get('location'),
      },
    });
    expect(validateEnvelope(row!.payload, { topic: TOPICS.customers }).valid).toBe(true);
  });

  it('writes CUSTOMER_UPDATED with the new version on PUT', async () => {
    const created = (await (await send('POST', '/v1/customer', { name: 'To Change' })).json()) as { number: string };
    const before = (await outboxRows()).length;
    const response = await send('PUT', `/v1/customer/${created.number}`, { name: 'Changed', currencyId: 'SEK' });
    expect(response.status).toBe(204);
    const rows = (await outboxRows()).slice(before);
    expect(rows.map((r) => r.event_type)).toEqual(['CUSTOMER_UPDATED']);
    expect(rows[0]!.payload.data).toMatchObject({ name: 'Changed', currencyId: 'SEK', status: 'Active' });
    expect(`"${rows[0]!.payload.data['version'] as string}"`).toBe(response.headers.get('etag'));
  });

  it('writes no event for a rejected request', async () => {
    const created = (await (await send('POST', '/v1/customer', { number: 'EV-1', name: 'Taken' })).json()) as {
      number: string;
    };
    const stale = (await t.http.request(`/v1/customer/${created.number}`, { headers })).headers.get('etag')!;
    expect((await send('PUT', `/v1/customer/${created.number}`, { status: 'OnHold' })).status).toBe(204);
    const before = await outboxRows();

    expect((await send('POST', '/v1/customer', { name: '' })).status).toBe(400);
    expect((await send('POST', '/v1/customer', { number: 'EV-1', name: 'Duplicate' })).status).toBe(400);
    expect((await send('PUT', `/v1/customer/${created.number}`, { name: 'Late' }, { 'if-match': stale })).status).toBe(412);
    expect((await send('PUT', '/v1/customer/NOPE-404', { name: 'Ghost' })).status).toBe(404);
    expect((await send('PUT', `/v1/customer/${created.number}`, { status: 'Sleeping' })).status).toBe(400);
    expect((await send('PUT', `/v1/customer/${created.number}`, '{broken')).status).toBe(400);

    expect(await outboxRows()).toEqual(before);
  });

  it('publishes the events to Kafka in the order of the changes, keyed by company and customer', async () => {
    const reader = await TopicReader.start([`${t.topicPrefix}${TOPICS.customers}`]);
    try {
      const created = (await (await send('POST', '/v1/customer', { name: 'Ordered' })).json()) as { number: string };
      const versions: string[] = [];
      for (const status of ['OnHold', 'Active', 'Inactive']) {
        const response = await send('PUT', `/v1/customer/${created.number}`, { status });
        versions.push(response.headers.get('etag')!.replace(/"/g, ''));
      }
      const mine = () => reader.events().filter((event) => event.subject === created.number);
      await waitFor('four events of the customer', () => mine().length >= 4);
      expect(mine().map((event) => event.type)).toEqual([
        'CUSTOMER_CREATED',
        'CUSTOMER_UPDATED',
        'CUSTOMER_UPDATED',
        'CUSTOMER_UPDATED',
      ]);
      expect(mine().slice(1).map((event) => (event['data'] as { version: string }).version)).toEqual(versions);
      expect(
        reader.messages.filter((m) => m.key === `${A}:${created.number}`).map((m) => m.partition),
      ).toEqual(Array(4).fill(reader.messages.find((m) => m.key === `${A}:${created.number}`)!.partition));
    } finally {
      await reader.stop();
    }
  });
});
