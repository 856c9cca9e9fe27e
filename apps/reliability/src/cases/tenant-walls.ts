import { TestAuth } from '@erp/testing';
import { ENDPOINTS, type Endpoint, neverExisting, requestInit } from '../support/endpoints';
import type { CompanyFixture, Harness } from '../support/system';

export interface TenantWorld {
  /** The attacker's company and its own records. */
  attacker: CompanyFixture;
  /** The victim's records (ids the attacker's company does not have). */
  victim: CompanyFixture;
  /** Strings of the victim's data that must never reach the attacker. */
  victimSecrets: string[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A body with its ids, request ids and message ids replaced, to compare two answers. */
function normalise(body: string, ids: string[]): string {
  let text = body.replace(UUID, '<uuid>');
  for (const id of ids.filter(Boolean).sort((a, b) => b.length - a.length)) {
    text = text.replace(new RegExp(`(?<![\\w-])${id}(?![\\w-])`, 'g'), '<id>');
  }
  return text;
}

function idsOf(f: CompanyFixture): string[] {
  return [f.customerNumber, f.invoiceNumber, f.orderId, String(f.lineId), f.attachmentId, f.subscriptionId];
}

async function send(h: Harness, endpoint: Endpoint, f: CompanyFixture, headers: Record<string, string>) {
  const response = await h.call(endpoint.path(f), requestInit(endpoint, f, headers));
  return { status: response.status, body: await response.text(), headers: response.headers };
}

const ALL_SCOPES = ['erp:read', 'erp:write', 'webhooks:manage'];

export function describeTenantWalls(harness: () => Harness, world: () => TenantWorld, figures: Record<string, unknown>): void {
  let requests = 0;
  afterAll(() => {
    figures['tenantWalls.requests'] = requests;
  });

  const byId = ENDPOINTS.filter((e) => e.addressesRecord);

  it.each(byId.map((e) => [`${e.method} ${e.name}`, e] as const))(
    "%s: the attacker addressing the victim's record by id gets what a never-existing id gets, and learns nothing",
    async (_label, endpoint) => {
      const h = harness();
      const { attacker, victim, victimSecrets } = world();
      const headers = await h.auth.headers({ company: attacker.company });
      const victims = await send(h, endpoint, victim, headers);
      const never = await send(h, endpoint, neverExisting(victim), headers);
      requests += 2;
      expect([403, 404]).toContain(victims.status);
      expect(victims.status).toBe(never.status);
      // The victim's ids were sent by the attacker (the path echoes them); its data must not show.
      for (const secret of victimSecrets.filter((x) => !idsOf(victim).includes(x))) expect(victims.body).not.toContain(secret);
      const ids = [...idsOf(victim), ...idsOf(neverExisting(victim))];
      expect(normalise(victims.body, ids)).toBe(normalise(never.body, ids));
    },
  );

  it.each([
    ['customers by name', (_v: CompanyFixture) => `/v1/customer?name=${encodeURIComponent('Secret B')}`, false],
    ['supplier invoices by supplier', () => '/v1/supplierInvoice?supplier=SUP-B', false],
    ['sales orders by text filter', () => `/api/v3/SalesOrders?filter=${encodeURIComponent('Secret B')}`, true],
    ['sales orders by customer', (v: CompanyFixture) => `/api/v3/SalesOrders?customerId=${v.customerNumber}`, true],
    ['sales orders of a type by customer order', () => '/api/v3/SalesOrders/SO?filter=PO-B', true],
    ['sales orders expanded', () => '/api/v3/SalesOrders?expand=all&pageSize=100', true],
    ['webhook subscriptions', () => '/api/webhooks/subscriptions?pageSize=100', true],
    ['customers (v3) by text filter', () => `/api/v3/Customers?filter=${encodeURIComponent('Secret B')}`, true],
    ['customers (v3)', () => '/api/v3/Customers?pageSize=1000', true],
    ['inventory by the victim item id, expanded', (v: CompanyFixture) => `/api/v3/Inventory?inventoryId=${v.inventoryId}&expand=all`, true],
    ['inventory', () => '/api/v3/Inventory?expand=all', true],
  ] as const)("lists %s never show the victim's records", async (_label, path, v3) => {
    const h = harness();
    const { attacker, victim, victimSecrets } = world();
    const headers = await h.auth.headers({ company: attacker.company, ...(v3 ? { applicationType: null } : {}) });
    const response = await h.call(path(victim), { headers });
    requests++;
    const body = await response.text();
    expect(response.status).toBe(200);
    for (const secret of victimSecrets) expect(body).not.toContain(secret);
  });

  it.each(ENDPOINTS.map((e) => [`${e.method} ${e.name}`, e] as const))(
    "%s: a token for the attacker's company naming the victim's company in ipp-company-id is 403",
    async (_label, endpoint) => {
      const h = harness();
      const { attacker, victim } = world();
      const token = await h.auth.token({ companies: [attacker.company] });
      const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': victim.company, 'ipp-application-type': 'rel', accept: 'application/json' };
      const answer = await send(h, endpoint, victim, headers);
      requests++;
      expect(answer.status).toBe(403);
    },
  );

  it.each(ENDPOINTS.map((e) => [`${e.method} ${e.name}`, e] as const))(
    '%s: a token without the needed scope is 403',
    async (_label, endpoint) => {
      const h = harness();
      const { attacker } = world();
      const scope = ALL_SCOPES.filter((s) => s !== endpoint.scope).join(' ');
      const answer = await send(h, endpoint, attacker, await h.auth.headers({ company: attacker.company, scope }));
      requests++;
      expect(answer.status).toBe(403);
    },
  );

  const badTokens: Array<[string, (auth: TestAuth, company: string) => Promise<string> | string]> = [
    ['expired', (auth, company) => auth.token({ companies: [company], expiresInSeconds: -120 })],
    ['not yet valid', (auth, company) => auth.token({ companies: [company], notBeforeSeconds: 600 })],
    ['signed by a foreign key', (_auth, company) => TestAuth.foreignToken([company])],
    ['alg none', (_auth, company) => TestAuth.unsignedToken([company])],
    ['HMAC keyed with the public key', (auth, company) => auth.hmacConfusionToken([company])],
    ['for another audience', (auth, company) => auth.token({ companies: [company], audience: 'another-api' })],
    ['from another issuer', (auth, company) => auth.token({ companies: [company], issuer: 'another-issuer' })],
    ['garbage', () => 'not.a.jwt'],
  ];

  it.each(badTokens)('a token %s is 401 with WWW-Authenticate on every endpoint', async (_label, make) => {
    const h = harness();
    const { attacker } = world();
    const token = await make(h.auth, attacker.company);
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': attacker.company, 'ipp-application-type': 'rel', accept: 'application/json' };
    const failures: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const answer = await send(h, endpoint, attacker, headers);
      requests++;
      if (answer.status !== 401 || !/^Bearer/.test(answer.headers.get('www-authenticate') ?? '')) {
        failures.push(`${endpoint.method} ${endpoint.name}: ${answer.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
}
