import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { describeTenantWallRules, whileTenantViewAdmitsNothing } from '@erp/testing';
import { CUSTOMERS_TENANT_TABLES } from '../migrations/1766700000000-enable-tenant-views';
import { NAME_REGISTRATION_LIMIT_TABLES } from '../migrations/1766950000000-create-name-registration-limits';
import { NameCountScheduler } from '../name-counts/name-count-scheduler';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const A = '1000001';
const B = '2000002';

/**
 * Defence in depth: the tenant views keep companies apart even where a query forgets
 * `company_id`. Each statement runs through the service's own DataSource in a company's scope,
 * exactly as a request handler's would (RELIABILITY.md "Defence in depth").
 */
describe('customers-v1 tenant wall', () => {
  let t: CustomersTestApp;
  let db: DataSource;
  const headersOf = async (company: string) => ({ ...(await t.auth.headers({ company })), 'content-type': 'application/json' });
  const list = async (company: string, query = '') =>
    t.http.request(`/v1/customer${query}`, { headers: await headersOf(company) });

  beforeAll(async () => {
    // Every name search registers its fragment, so that the kept name counts have rows of both.
    t = await startCustomersTestApp({ CUSTOMER_NAME_COUNT_MIN_MATCHES: '1' });
    db = t.service.app.get<DataSource>(getDataSourceToken());
    for (const company of [A, B]) {
      for (const name of ['Walled AS', 'Walled Two AS']) {
        const response = await t.http.request('/v1/customer', { method: 'POST', headers: await headersOf(company), body: JSON.stringify({ name }) });
        expect(response.status).toBe(201);
      }
      expect((await list(company, '?name=walled')).status).toBe(200);
      await t.service.app.get(NameCountScheduler).settled();
    }
    const { rows } = await t.sql.query(`SELECT company_id, count(*)::int AS n FROM customer_name_fragments GROUP BY 1 ORDER BY 1`);
    expect(rows).toEqual([
      { company_id: A, n: 1 },
      { company_id: B, n: 1 },
    ]);
    // The registrations above claimed each company's row; a deferred retry of each, to probe.
    await t.sql.query(`INSERT INTO customer_name_retries (company_id, fragment, not_before) VALUES ($1, 'x', now()), ($2, 'x', now())`, [A, B]);
  });

  afterAll(async () => {
    await t?.close();
  });

  describeTenantWallRules({ db: () => db, tables: [...CUSTOMERS_TENANT_TABLES, ...NAME_REGISTRATION_LIMIT_TABLES], own: A, other: B });

  it('still answers requests (the API filters by company as before), and work outside a request sees every company', async () => {
    expect(((await (await list(B)).json()) as unknown[]).length).toBe(2);
    const all = await db.query<Array<{ company_id: string; n: number }>>(`SELECT company_id, count(*)::int AS n FROM customers GROUP BY 1 ORDER BY 1`);
    expect(all).toEqual([
      { company_id: A, n: 2 },
      { company_id: B, n: 2 },
    ]);
  });

  it('runs request handlers behind the wall: a view that admits nothing empties the list and the name search', async () => {
    await whileTenantViewAdmitsNothing(t.sql, 'customers', async () => {
      expect(await (await list(A)).json()).toEqual([]);
      expect(await (await list(A, '?name=walled')).json()).toEqual([]);
    });
    expect(((await (await list(A, '?name=walled')).json()) as unknown[]).length).toBe(2);
  });

  it('keeps the count cells behind the wall too: writes through a request update them under it', async () => {
    await whileTenantViewAdmitsNothing(t.sql, 'customer_list_buckets', async () => {
      // The insert trigger writes the cell through the view, whose check refuses the row: the write fails whole.
      const response = await t.http.request('/v1/customer', { method: 'POST', headers: await headersOf(A), body: JSON.stringify({ name: 'Refused AS' }) });
      expect(response.status).toBe(500);
    });
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM customers WHERE name = 'Refused AS'`);
    expect(rows).toEqual([{ n: 0 }]);
  });
});
