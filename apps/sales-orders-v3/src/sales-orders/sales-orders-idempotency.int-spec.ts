import { describeIdempotentWriteRules, type IdempotentWriteFamily, type KeyedWriteRequest } from '@erp/testing';
import { insertCustomerSnapshots, putInventoryItems, type SalesOrdersTestApp, useSalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
const B = '2000002';
const ITEMS = ['STOCKITEM1', 'STOCKITEM2'];

/** Orders, their lines and SALESORDER_* outbox rows of a company. */
async function effectsIn(t: SalesOrdersTestApp, company: string): Promise<Record<string, number>> {
  const { rows } = await t.sql.query<{ orders: number; lines: number; versions: string; events: number }>(
    `SELECT (SELECT count(*)::int FROM sales_orders WHERE company_id = $1) AS orders,
            (SELECT count(*)::int FROM sales_order_lines WHERE company_id = $1) AS lines,
            (SELECT coalesce(sum(version), 0)::text FROM sales_orders WHERE company_id = $1) AS versions,
            (SELECT count(*)::int FROM outbox WHERE payload->>'companyId' = $1) AS events`,
    [company],
  );
  return { ...rows[0]!, versions: Number(rows[0]!.versions) };
}

/**
 * Every v3 write of sales orders keeps the Idempotency-Key rules: the create, the PATCH (replayed
 * after its own change moved the ETag: the first answer, not a 412), and the line operations.
 */
describe('sales-orders-v3 keyed writes', () => {
  const app = useSalesOrdersTestApp('keyed', async (t) => {
    for (const company of [A, B]) {
      await insertCustomerSnapshots(t, company, [{ id: '10001', name: 'Acme AS', currencyId: 'NOK' }]);
      await putInventoryItems(t, company, ITEMS);
    }
  });
  let made = 0;

  /** A fresh order of the company, and the ETag it has now. */
  const freshOrder = async (company: string): Promise<{ orderId: string; etag: string }> => {
    const t = app();
    const response = await t.http.request('/api/v3/SalesOrders', {
      method: 'POST',
      headers: await t.headers(company),
      body: JSON.stringify({ type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'STOCKITEM1', quantity: 1, unitPrice: 10 }] }),
    });
    const order = (await response.json()) as { orderId: string };
    if (response.status !== 201) throw new Error(`POST answered ${response.status}`);
    return { orderId: order.orderId, etag: response.headers.get('etag') as string };
  };
  const family = (operation: string, request: IdempotentWriteFamily['request']): IdempotentWriteFamily => ({
    url: () => app().service.url,
    auth: () => app().auth,
    sql: () => app().sql,
    company: A,
    otherCompany: B,
    operation,
    effects: (company) => effectsIn(app(), company),
    request,
  });
  const onFreshOrder = (method: 'PATCH' | 'POST', suffix: string, body: (variant: 'first' | 'other') => unknown) => async (variant: 'first' | 'other', company: string): Promise<KeyedWriteRequest> => {
    const { orderId, etag } = await freshOrder(company);
    return { method, path: `/api/v3/SalesOrders/SO/${orderId}${suffix}`, body: body(variant), headers: { 'if-match': etag } };
  };

  describeIdempotentWriteRules(
    'POST /api/v3/SalesOrders',
    family('POST /api/v3/SalesOrders', (variant) => ({
      method: 'POST',
      path: '/api/v3/SalesOrders',
      body: { type: 'SO', customer: { id: '10001' }, description: `${variant} ${++made}`, orderLines: [{ inventoryId: 'STOCKITEM1', quantity: 2, unitPrice: 10 }] },
    })),
  );
  describeIdempotentWriteRules(
    'PATCH /api/v3/SalesOrders/{type}/{orderId}',
    family('PATCH /api/v3/SalesOrders/:type/:orderId', onFreshOrder('PATCH', '', (variant) => ({ description: `patched ${variant} ${++made}` }))),
  );
  describeIdempotentWriteRules(
    'POST /api/v3/SalesOrders/{type}/{orderId}/lines',
    family(
      'POST /api/v3/SalesOrders/:type/:orderId/lines',
      onFreshOrder('POST', '/lines', (variant) => ({ lines: [{ inventoryId: 'STOCKITEM2', quantity: variant === 'other' ? 3 : 2, unitPrice: 5 }] })),
    ),
  );
  describeIdempotentWriteRules(
    'PATCH /api/v3/SalesOrders/{type}/{orderId}/lines',
    family('PATCH /api/v3/SalesOrders/:type/:orderId/lines', onFreshOrder('PATCH', '/lines', (variant) => ({ lines: [{ lineId: 1, quantity: variant === 'other' ? 7 : 5 }] }))),
  );
});
