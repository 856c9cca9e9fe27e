import type { ProblemBody } from '@erp/errors';
import { FINANCIALS_PUBLISHER, SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { TestReceiver } from '../testing/test-receiver';
import { startWebhooksTestApp, type WebhooksTestApp } from '../testing/webhooks-test-app';

const A = '1000001';
const B = '2000002';
const BASE = '/api/webhooks/subscriptions';
let t: WebhooksTestApp;

type Problem = ProblemBody;

async function expectProblem(response: Response, status: number): Promise<Problem> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  const body = (await response.json()) as Problem;
  expect(body).toMatchObject({ status, type: expect.stringMatching(/^urn:erp:problem:/) });
  return body;
}

function create(body: Record<string, unknown>, company = A): Promise<Response> {
  return t.api(BASE, { method: 'POST', body, company });
}

const VALID = { publisher: SALES_ORDER_PUBLISHER, eventTypes: ['SALESORDER_UPDATED'], url: 'https://hooks.example.test/erp' };

describe('webhook subscriptions API', () => {
  beforeAll(async () => {
    // Names in the URLs below resolve through this table instead of DNS (tests have no network).
    const hosts: Record<string, string[]> = { 'hooks.example.test': ['93.184.215.14'], 'rebind.example.test': ['10.0.0.7'] };
    t = await startWebhooksTestApp('webhook-subscriptions', { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' }, {
      resolveHost: async (host) => {
        if (!hosts[host]) throw new Error('ENOTFOUND');
        return hosts[host];
      },
    });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('lists both publishers with their event types and a JSON Schema per payload', async () => {
    const response = await t.api('/api/webhooks/publishers');
    expect(response.status).toBe(200);
    const { value } = (await response.json()) as {
      value: Array<{ name: string; eventTypes: Array<{ type: string; schema: { properties: { data: object; type: { const: string } } } }> }>;
    };
    expect(value.map((p) => [p.name, p.eventTypes.map((e) => e.type)])).toEqual([
      [SALES_ORDER_PUBLISHER, ['SALESORDER_CREATED', 'SALESORDER_UPDATED', 'SALESORDER_DELETED']],
      [FINANCIALS_PUBLISHER, ['CUSTOMER_CREATED', 'CUSTOMER_UPDATED', 'SUPPLIERINVOICE_CREATED', 'SUPPLIERINVOICE_UPDATED', 'ATTACHMENT_CREATED']],
    ]);
    for (const type of value.flatMap((p) => p.eventTypes)) {
      expect(type.schema.properties.type.const).toBe(type.type);
      expect(type.schema.properties.data).toMatchObject({ type: 'object', required: expect.any(Array) });
    }
  });

  it('creates a subscription with a whsec_ secret of 32 random bytes, shown only at creation', async () => {
    const response = await create({ ...VALID, description: 'ERP sync' });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown> & { id: string; secret: string };
    expect(response.headers.get('location')).toBe(`${BASE}/${body.id}`);
    expect(body).toMatchObject({ ...VALID, description: 'ERP sync', enabled: true, disabledReason: null, previousSecretExpiresAt: null });
    expect(body.secret).toMatch(/^whsec_/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);

    const read = (await (await t.api(`${BASE}/${body.id}`)).json()) as Record<string, unknown>;
    expect(read.secret).toBeUndefined();
    expect(read).toMatchObject({ id: body.id, url: VALID.url, eventTypes: VALID.eventTypes });
    const list = (await (await t.api(BASE)).json()) as { value: Array<Record<string, unknown>> };
    expect(list.value.every((s) => s.secret === undefined)).toBe(true);
  });

  it('refuses v3 sales order events on the financials publisher with a 400 naming the v3 publisher', async () => {
    const problem = await expectProblem(
      await create({ publisher: FINANCIALS_PUBLISHER, eventTypes: ['CUSTOMER_UPDATED', 'SALESORDER_UPDATED'], url: VALID.url }),
      400,
    );
    expect(problem.errors?.['eventTypes[1]']?.[0]).toContain(SALES_ORDER_PUBLISHER);
    expect(problem.detail).toContain(SALES_ORDER_PUBLISHER);
    expect(problem.errors?.['eventTypes[0]']).toBeUndefined();
    // ... and the other way round, and unknown types.
    const other = await expectProblem(await create({ ...VALID, eventTypes: ['CUSTOMER_CREATED', 'ORDER_SHIPPED'] }), 400);
    expect(Object.keys(other.errors ?? {}).sort()).toEqual(['eventTypes[0]', 'eventTypes[1]']);
    expect(other.errors?.['eventTypes[0]']?.[0]).toContain(FINANCIALS_PUBLISHER);
  });

  it('lists every bad field at once and refuses unknown fields', async () => {
    const problem = await expectProblem(await create({ publisher: 'someone-else', eventTypes: [], url: '', extra: 1 }), 400);
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual(['eventTypes', 'extra', 'publisher', 'url']);
    expect(problem.details?.map((d) => d.code)).toContain('0003-UnknownProperty');
  });

  it('refuses SSRF targets: non-http(s), credentials, private, loopback, link-local, localhost and names resolving to them', async () => {
    const bad = [
      'ftp://hooks.example.test/x',
      'file:///etc/passwd',
      'not a url',
      'https://user:pw@hooks.example.test/x',
      'http://127.0.0.1:8080/x',
      'http://10.1.2.3/x',
      'http://172.16.0.1/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://[fe80::1]/x',
      'http://[fd00::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://0x7f000001/x',
      'http://0/x',
      'http://localhost:3000/x',
      'http://rebind.example.test/x',
      'http://unknown.example.test/x',
    ];
    for (const url of bad) {
      const problem = await expectProblem(await create({ ...VALID, url }), 400);
      expect([url, Object.keys(problem.errors ?? {})]).toEqual([url, ['url']]);
    }
    expect((await create({ ...VALID, url: 'http://93.184.215.14/hook' })).status).toBe(201);
  });

  it('checks the address again when delivering: a host that resolves to a private address is never contacted', async () => {
    const receiver = await TestReceiver.start();
    try {
      const port = new URL(receiver.url).port;
      // As if DNS had answered with a public address at creation and rebinds to loopback now.
      const created = (await (await create({ ...VALID, url: 'https://hooks.example.test/erp' })).json()) as { id: string };
      for (const url of [`http://localhost:${port}/hooks`, `http://127.0.0.1:${port}/hooks`]) {
        await t.sql.query(`UPDATE webhook_subscriptions SET url = $2 WHERE id = $1`, [created.id, url]);
        await t.sql.query(`DELETE FROM webhook_delivery_attempts`);
        const { salesOrderEvent } = await import('../testing/webhooks-test-app');
        await t.publish(salesOrderEvent(A, '000001', Date.now()));
        const deadline = Date.now() + 10_000;
        let attempts: Array<{ status: string; error: string }> = [];
        while (attempts.length === 0 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          attempts = ((await (await t.api(`${BASE}/${created.id}/deliveries`)).json()) as { value: typeof attempts }).value;
        }
        expect(attempts[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/refused to connect/) });
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('pages the list in the v3 envelope, scoped to the company', async () => {
    await t.sql.query(`DELETE FROM webhook_subscriptions`);
    for (let i = 0; i < 3; i++) expect((await create({ ...VALID, description: `A${i}` })).status).toBe(201);
    expect((await create({ ...VALID, description: 'B0' }, B)).status).toBe(201);
    const first = (await (await t.api(`${BASE}?pageSize=2`)).json()) as { value: Array<{ description: string }>; totalCount: number; nextPage: string };
    expect(first.value.map((s) => s.description)).toEqual(['A0', 'A1']);
    expect(first.totalCount).toBe(3);
    expect(first.nextPage).toBe(`${BASE}?pageSize=2&pageIndex=1`);
    const second = (await (await t.api(first.nextPage)).json()) as { value: Array<{ description: string }>; nextPage: string | null };
    expect(second.value.map((s) => s.description)).toEqual(['A2']);
    expect(second.nextPage).toBeNull();
    await expectProblem(await t.api(`${BASE}?pageSize=abc`), 400);
    await expectProblem(await t.api(`${BASE}?publisher=x`), 400);
  });

  it('answers 404 for another company’s subscription on every operation, and for ids that cannot exist', async () => {
    const { id } = (await (await create(VALID, B)).json()) as { id: string };
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `${BASE}/${id}`],
      ['PATCH', `${BASE}/${id}`, { enabled: false }],
      ['DELETE', `${BASE}/${id}`],
      ['POST', `${BASE}/${id}/rotate-secret`],
      ['GET', `${BASE}/${id}/deliveries`],
      ['POST', `${BASE}/${id}/replay`, { since: '2026-01-01T00:00:00Z' }],
      ['GET', `${BASE}/not-a-uuid`],
    ];
    for (const [method, path, body] of calls) {
      await expectProblem(await t.api(path, { method, body, company: A }), 404);
    }
    expect((await t.api(`${BASE}/${id}`, { company: B })).status).toBe(200);
  });

  it('updates url, event types and enabled; re-enabling clears the disabled reason', async () => {
    const { id } = (await (await create(VALID)).json()) as { id: string };
    await t.sql.query(`UPDATE webhook_subscriptions SET enabled = false, disabled_reason = 'gone' WHERE id = $1`, [id]);
    const response = await t.api(`${BASE}/${id}`, {
      method: 'PATCH',
      body: { url: 'https://hooks.example.test/v2', eventTypes: ['SALESORDER_CREATED', 'SALESORDER_DELETED'], enabled: true },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      url: 'https://hooks.example.test/v2',
      eventTypes: ['SALESORDER_CREATED', 'SALESORDER_DELETED'],
      enabled: true,
      disabledReason: null,
    });
    const problem = await expectProblem(await t.api(`${BASE}/${id}`, { method: 'PATCH', body: { eventTypes: ['CUSTOMER_CREATED'], url: 'http://10.0.0.1/' } }), 400);
    expect(Object.keys(problem.errors ?? {}).sort()).toEqual(['eventTypes[0]', 'url']);
    await expectProblem(await t.api(`${BASE}/${id}`, { method: 'PATCH', body: { url: null } }), 400);
    await expectProblem(await t.api(`${BASE}/${id}`, { method: 'PATCH', body: { publisher: FINANCIALS_PUBLISHER } }), 400);
  });

  it('keeps what a PATCH leaves out, clears the description with null, and keeps the disabled reason unless re-enabled', async () => {
    const { id } = (await (await create({ ...VALID, description: 'first' })).json()) as { id: string };
    const patch = async (body: Record<string, unknown>) => {
      const response = await t.api(`${BASE}/${id}`, { method: 'PATCH', body });
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    expect(await patch({ url: 'https://hooks.example.test/other' })).toMatchObject({ description: 'first', eventTypes: VALID.eventTypes, enabled: true });
    expect(await patch({ description: 'second' })).toMatchObject({ description: 'second', url: 'https://hooks.example.test/other' });
    await t.sql.query(`UPDATE webhook_subscriptions SET disabled_reason = 'gone', failing_since = now() WHERE id = $1`, [id]);
    expect(await patch({ enabled: false, description: null })).toMatchObject({ description: null, enabled: false, disabledReason: 'gone' });
    const { rows } = await t.sql.query(`SELECT failing_since IS NOT NULL AS failing FROM webhook_subscriptions WHERE id = $1`, [id]);
    expect(rows).toEqual([{ failing: true }]);
  });

  it('refuses a JSON body that is not an object (null, array, string, number) with a 400, changing nothing', async () => {
    const { id } = (await (await create(VALID)).json()) as { id: string };
    const before = await t.sql.query(`SELECT * FROM webhook_subscriptions ORDER BY id`);
    for (const body of [null, [], 'https://hooks.example.test/', 5]) {
      await expectProblem(await t.api(`${BASE}/${id}`, { method: 'PATCH', body }), 400);
      await expectProblem(await t.api(BASE, { method: 'POST', body }), 400);
    }
    expect((await t.sql.query(`SELECT * FROM webhook_subscriptions ORDER BY id`)).rows).toEqual(before.rows);
  });

  it('deletes a subscription (204, then 404)', async () => {
    const { id } = (await (await create(VALID)).json()) as { id: string };
    expect((await t.api(`${BASE}/${id}`, { method: 'DELETE' })).status).toBe(204);
    await expectProblem(await t.api(`${BASE}/${id}`), 404);
  });

  it('refuses replay windows that are not timestamps or end before they start', async () => {
    const { id } = (await (await create(VALID)).json()) as { id: string };
    await expectProblem(await t.api(`${BASE}/${id}/replay`, { method: 'POST', body: {} }), 400);
    await expectProblem(await t.api(`${BASE}/${id}/replay`, { method: 'POST', body: { since: 'yesterday' } }), 400);
    const problem = await expectProblem(
      await t.api(`${BASE}/${id}/replay`, { method: 'POST', body: { since: '2026-02-01T00:00:00Z', until: '2026-01-01T00:00:00Z' } }),
      400,
    );
    expect(Object.keys(problem.errors ?? {})).toEqual(['until']);
  });

  it('needs a valid token with webhooks:manage for the company', async () => {
    expect((await t.http.request(BASE)).status).toBe(401);
    await expectProblem(await t.api(BASE, { scope: 'erp:read erp:write' }), 403);
    const other = await t.auth.headers({ companies: [A], company: B });
    await expectProblem(await t.http.request(BASE, { headers: other }), 403);
  });
});
