import { getDataSourceToken } from '@nestjs/typeorm';
import { Kafka, logLevel } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { createEvent, customerLink, TOPICS } from '@erp/contracts';
import { deadLetterTopicOf, messageKeyOf, prefixedTopic } from '@erp/messaging';
import { describeTenantWallRules, testKafkaBrokers, TopicReader, waitUntil, whileTenantViewAdmitsNothing, PATIENCE_MS } from '@erp/testing';
import { SALES_ORDERS_TENANT_TABLES } from '../migrations/1766700000000-enable-tenant-views';
import { PRICE_RULE_TENANT_TABLES } from '../migrations/1766700000001-wall-price-rules';
import { insertCustomerSnapshots, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
const B = '2000002';

/**
 * Defence in depth: the tenant views keep companies apart even where a query forgets
 * `company_id`. Each statement runs through the service's own DataSource in a company's scope,
 * exactly as a request handler's or the customer-event consumer's would (RELIABILITY.md
 * "Defence in depth").
 */
describe('sales-orders-v3 tenant wall', () => {
  let t: SalesOrdersTestApp;
  let db: DataSource;
  const page = async (company: string, query = '') => {
    const response = await t.http.request(`/api/v3/SalesOrders${query}`, { headers: await t.headers(company) });
    expect(response.status).toBe(200);
    return (await response.json()) as { value: unknown[]; totalCount: number };
  };
  /** The orders a list request answers with (`value` of the v3 page). */
  const listed = async (company: string, query = '') => (await page(company, query)).value;

  beforeAll(async () => {
    t = await startSalesOrdersTestApp('tenant-wall');
    db = t.service.app.get<DataSource>(getDataSourceToken());
    for (const company of [A, B]) {
      await insertCustomerSnapshots(t, company, [{ id: '10001', name: 'Fjord Walls AS' }]);
      const put = async (path: string, body: unknown) => {
        const response = await t.http.request(path, { method: 'PUT', headers: await t.headers(company), body: JSON.stringify(body) });
        expect(response.status).toBe(201);
      };
      await put('/api/v3/Inventory/WALL-1', {
        description: 'Wall',
        prices: [{ currencyId: 'NOK', unitPrice: '5.00' }],
        availability: [{ warehouseId: 'MAIN', quantityOnHand: 3, locations: [{ locationId: 'A1', quantityOnHand: 3 }] }],
      });
      // A row in every price-rule table (no entry names the class: the probe deletes classes).
      await put('/api/v3/PriceClasses/WALL', { customers: ['10001'] });
      await put('/api/v3/PriceLists/WALL', { currencyId: 'NOK', entries: [{ inventoryId: 'WALL-1', customerId: '10001', unitPrice: '4.00' }] });
      await put('/api/v3/CurrencyRates', { baseCurrencyId: 'NOK', rates: [{ currencyId: 'EUR', effectiveDate: '2026-01-01', rate: '11.5' }] });
      for (let i = 0; i < 2; i++) {
        const order = await t.http.request('/api/v3/SalesOrders', {
          method: 'POST',
          headers: await t.headers(company),
          body: JSON.stringify({ type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'WALL-1', quantity: 1, unitPrice: 5 }] }),
        });
        expect(order.status).toBe(201);
      }
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  describeTenantWallRules({ db: () => db, tables: [...SALES_ORDERS_TENANT_TABLES, ...PRICE_RULE_TENANT_TABLES], own: A, other: B });

  it('still answers requests (the API filters by company as before), and work outside a request sees every company', async () => {
    expect(await listed(B)).toHaveLength(2);
    const all = await db.query<Array<{ company_id: string; n: number }>>(`SELECT company_id, count(*)::int AS n FROM sales_orders GROUP BY 1 ORDER BY 1`);
    expect(all).toEqual([
      { company_id: A, n: 2 },
      { company_id: B, n: 2 },
    ]);
  });

  it('runs request handlers behind the wall: views that admit nothing empty the list and the text search count', async () => {
    await whileTenantViewAdmitsNothing(t.sql, 'sales_orders', async () => {
      expect(await listed(A)).toEqual([]);
    });
    // The text search counts its matches on the search texts.
    await whileTenantViewAdmitsNothing(t.sql, 'sales_order_search_texts', async () => {
      expect((await page(A, '?filter=fjord')).totalCount).toBe(0);
    });
    expect(await page(A, '?filter=fjord')).toMatchObject({ totalCount: 2, value: [{}, {}] });
  });

  it('runs the customer-event consumer behind the wall, in the event company scope', async () => {
    const topic = prefixedTopic(t.topicPrefix, TOPICS.customers);
    const deadLetters = await TopicReader.start([deadLetterTopicOf(topic)]);
    const producer = new Kafka({ clientId: 'sales-orders-wall-test', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    try {
      const event = (number: string) =>
        createEvent({
          type: 'CUSTOMER_CREATED',
          source: 'customers-v1',
          companyId: B,
          subject: number,
          data: { number, name: 'Walled Oy', status: 'Active', currencyId: 'EUR', version: '1', lastModifiedDateTime: '2026-04-21T10:00:00.000', link: customerLink(number) },
        });
      const send = (e: ReturnType<typeof event>) => producer.send({ topic, messages: [{ key: messageKeyOf(e), value: JSON.stringify(e) }] });
      const snapshotOf = async (number: string) =>
        (await t.sql.query(`SELECT company_id FROM customer_snapshots WHERE customer_id = $1`, [number])).rows;

      // The view admits nothing: the snapshot write is refused by its check, every attempt, and the event is parked.
      await whileTenantViewAdmitsNothing(t.sql, 'customer_snapshots', async () => {
        await send(event('20001'));
        await waitUntil('the event dead-lettered', () => deadLetters.messages.length === 1, PATIENCE_MS);
      });
      expect(deadLetters.messages[0].headers['x-dead-letter-reason']).toMatch(/violates check option for view "customer_snapshots"/);
      expect(await snapshotOf('20001')).toEqual([]);

      await send(event('20002'));
      await waitUntil('the snapshot written', async () => (await snapshotOf('20002')).length === 1, PATIENCE_MS);
      expect(await snapshotOf('20002')).toEqual([{ company_id: B }]);
    } finally {
      await producer.disconnect();
      await deadLetters.stop();
    }
  });
});
