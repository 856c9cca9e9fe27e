import type { TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';
import { ExitCode } from './exit-codes';
import { runCli } from './test-support/run-cli';
import { apiCaller, COMPANY, createCustomers, eventually, startCliSystem } from './test-support/system';

const ORDERS = 7;
const auth = new TestAuth();
const api = apiCaller(() => testSystem.system.baseUrl, auth);
let testSystem: TestSystem;
let env: Record<string, string>;
let customer: string;
let orderIds: string[];

/** v3 lists (nextPage paging) and `<type>/<orderId>` ids. */
describe('erp CLI: sales orders (v3)', () => {
  beforeAll(async () => {
    testSystem = await startCliSystem('cli_so', ['customers-v1', 'sales-orders-v3'], auth);
    env = { ERP_BASE_URL: testSystem.system.baseUrl, ERP_TOKEN: await auth.token({ companies: [COMPANY] }), ERP_COMPANY: COMPANY };
    [{ number: customer }] = await createCustomers(api, 1);
    // Order lines name items of the company's catalogue: created with the CLI itself.
    for (const item of [...Array.from({ length: ORDERS }, (_, i) => `ITEM-${i}`), 'NEW']) {
      const put = await runCli(['inventory', 'put', item, '--data', JSON.stringify({ description: `Item ${item}` })], env);
      expect({ code: put.code, stderr: put.stderr }).toEqual({ code: ExitCode.Ok, stderr: '' });
    }
    orderIds = [];
    for (let i = 0; i < ORDERS; i++) {
      // sales-orders-v3 learns customers from their events: the first order may need a retry.
      const order = await eventually(async () => {
        const response = await api('POST', '/api/v3/SalesOrders', {
          type: 'SO',
          customer: { id: customer },
          orderLines: [{ inventoryId: `ITEM-${i}`, quantity: 2, unitPrice: '5.25' }],
        });
        return response.status === 201 ? ((await response.json()) as { orderId: string }) : undefined;
      }, 'the customer to reach sales-orders-v3');
      orderIds.push(order.orderId);
    }
  }, 600_000);

  afterAll(async () => {
    await testSystem?.stop();
  }, 120_000);

  it('lists every order across pages (pageSize 3 -> 3 pages) with filters', async () => {
    const result = await runCli(['list', 'sales-orders', '--filter', `customerId=${customer}`, '--page-size', '3'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(ExitCode.Ok);
    const orders = JSON.parse(result.stdout.toString()) as Array<{ type: string; orderId: string; customerId: string }>;
    expect(orders.map((o) => o.orderId)).toEqual(orderIds);
    expect(orders.every((o) => o.type === 'SO' && o.customerId === customer)).toBe(true);
    const table = await runCli(['list', 'sales-orders', '-o', 'table'], env);
    expect(table.stdout.toString().trimEnd().split('\n')).toHaveLength(ORDERS + 2);
    expect(table.stdout.toString().split('\n')[0]).toMatch(/^type\s+orderId\s+status/);
  }, 120_000);

  it('exports orders to NDJSON and gets one by type/orderId', async () => {
    const exported = await runCli(['export', 'sales-orders', '--page-size', '2'], env);
    expect(exported.code).toBe(ExitCode.Ok);
    expect(exported.stdout.toString().trimEnd().split('\n').map((line) => (JSON.parse(line) as { orderId: string }).orderId)).toEqual(orderIds);
    const got = await runCli(['get', 'sales-orders', `SO/${orderIds[2]}`], env);
    expect(got.code).toBe(ExitCode.Ok);
    const plain = JSON.parse(got.stdout.toString()) as Record<string, unknown>;
    expect(plain).toMatchObject({ type: 'SO', orderId: orderIds[2] });
    expect(plain).not.toHaveProperty('lines');
    const expanded = await runCli(['get', 'sales-orders', `SO-${orderIds[2]}`, '--query', 'expand=lines,customer'], env);
    expect(expanded.code).toBe(ExitCode.Ok);
    expect(JSON.parse(expanded.stdout.toString())).toMatchObject({
      type: 'SO',
      orderId: orderIds[2],
      customer: { id: customer },
      lines: [expect.objectContaining({ inventory: expect.objectContaining({ id: 'ITEM-2' }) })],
    });
    const missing = await runCli(['get', 'sales-orders', 'SO-999999'], env);
    expect(missing.code).toBe(ExitCode.Client);
    expect(missing.stderr).toMatch(/^erp: GET \/api\/v3\/SalesOrders\/SO\/999999 -> 404/);
  }, 120_000);

  it('puts and lists inventory items, lists the v3 customers and prints a customer\'s locations', async () => {
    const put = await runCli(['inventory', 'put', 'CLI-BOLT', '--data', '{"description":"Bolt","attributes":{"WEBSHOP":"1"},"availability":[{"warehouseId":"MAIN","quantityOnHand":12}]}'], env);
    expect(put.code).toBe(ExitCode.Ok);
    expect(JSON.parse(put.stdout.toString())).toMatchObject({ inventoryId: 'CLI-BOLT', attributes: { WEBSHOP: '1' }, availability: [{ warehouseId: 'MAIN', quantityOnHand: 12 }] });
    const listed = await runCli(['list', 'inventory', '--filter', 'attributeFilter=WEBSHOP:1', '--filter', 'expand=attribute'], env);
    expect(listed.code).toBe(ExitCode.Ok);
    expect(JSON.parse(listed.stdout.toString())).toEqual([expect.objectContaining({ inventoryId: 'CLI-BOLT', attributes: { WEBSHOP: '1' } })]);
    const table = await runCli(['list', 'inventory', '-o', 'table', '--page-size', '3'], env);
    expect(table.stdout.toString().trimEnd().split('\n')).toHaveLength(ORDERS + 1 + 1 + 2);
    const refused = await runCli(['inventory', 'put', 'CLI-BAD', '--data', '{"colour":"red"}'], env);
    expect(refused.code).toBe(ExitCode.Client);
    expect(refused.stderr).toMatch(/-> 400/);

    const customers = await runCli(['list', 'customers-v3', '--filter', `filter=${customer}`], env);
    expect(customers.code).toBe(ExitCode.Ok);
    expect(JSON.parse(customers.stdout.toString())).toEqual([expect.objectContaining({ id: customer, defaultLocation: expect.objectContaining({ id: 'MAIN' }) })]);
    const locations = await runCli(['locations', customer], env);
    expect(locations.code).toBe(ExitCode.Ok);
    expect(JSON.parse(locations.stdout.toString())).toEqual([expect.objectContaining({ id: 'MAIN' })]);
    const missing = await runCli(['locations', '99999'], env);
    expect(missing.code).toBe(ExitCode.Client);
    expect(missing.stderr).toMatch(/-> 404/);
  }, 120_000);

  it('puts and gets price classes, price lists and exchange rates; a bad body is the API\'s 400, a missing id a usage error', async () => {
    const item = await runCli(['inventory', 'put', 'CLI-PRICED', '--data', '{"prices":[{"currencyId":"NOK","unitPrice":"4.20"}]}'], env);
    expect(item.code).toBe(ExitCode.Ok);
    const cls = await runCli(['prices', 'put', 'class', 'CLI-TRADE', '--data', JSON.stringify({ customers: [customer] })], env);
    expect(JSON.parse(cls.stdout.toString())).toMatchObject({ priceClassId: 'CLI-TRADE', customers: [customer] });
    const list = await runCli(['prices', 'put', 'list', 'CLI-NOK', '--data', '{"currencyId":"NOK","entries":[{"inventoryId":"CLI-PRICED","priceClassId":"CLI-TRADE","unitPrice":"3.99"}]}'], env);
    expect(list.code).toBe(ExitCode.Ok);
    const got = await runCli(['prices', 'get', 'list', 'CLI-NOK'], env);
    expect(JSON.parse(got.stdout.toString())).toMatchObject({ priceListId: 'CLI-NOK', currencyId: 'NOK', entries: [{ inventoryId: 'CLI-PRICED', unitPrice: 3.99 }] });
    const rates = await runCli(['prices', 'put', 'rates', '--data', '{"baseCurrencyId":"NOK","rates":[]}'], env);
    expect(JSON.parse(rates.stdout.toString())).toMatchObject({ baseCurrencyId: 'NOK', rates: [] });
    const refused = await runCli(['prices', 'put', 'list', 'CLI-BAD', '--data', '{"currencyId":"nok"}'], env);
    expect(refused.code).toBe(ExitCode.Client);
    expect(refused.stderr).toMatch(/-> 400/);
    expect((await runCli(['prices', 'get', 'class'], env)).code).toBe(ExitCode.Usage);
  }, 120_000);

  it('adds, changes and deletes lines under If-Match, printing the new version for the next write', async () => {
    const order = `SO/${orderIds[0]}`;
    const read = async (): Promise<{ version: string; totals: { orderTotal: number }; lines: Array<{ lineId: number; quantity: number; inventory: { id: string } }> }> =>
      JSON.parse((await runCli(['get', 'sales-orders', order, '--query', 'expand=lines'], env)).stdout.toString());
    const versionOf = (result: { code: number | null; stdout: Buffer; stderr: string }) => {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(ExitCode.Ok);
      return JSON.parse(result.stdout.toString()) as { etag: string; version: string };
    };

    const added = versionOf(await runCli(['lines', 'add', order, '--version', (await read()).version, '--data', '[{"inventoryId":"NEW","quantity":3,"unitPrice":"2"}]'], env));
    expect(added.etag).toMatch(/^"\d+"$/);
    const patched = versionOf(await runCli(['lines', 'patch', order, '--if-match', added.etag, '--data', '{"lines":[{"lineId":2,"quantity":4}]}'], env));

    const stale = await runCli(['lines', 'delete', order, '--if-match', added.etag, '--ids', '1'], env);
    expect(stale.code).toBe(ExitCode.Conflict);
    expect(stale.stderr).toMatch(/DELETE \/api\/v3\/SalesOrders\/SO\/\d+\/lines -> 412/);

    const deleted = versionOf(await runCli(['lines', 'delete', order, '--version', patched.version, '--ids', '1'], env));
    const after = await read();
    expect(after.version).toBe(deleted.version);
    expect(after.lines).toEqual([expect.objectContaining({ lineId: 2, quantity: 4, inventory: expect.objectContaining({ id: 'NEW' }) })]);
    expect(after.totals.orderTotal).toBe(8);

    const refused = await runCli(['lines', 'patch', order, '--if-match', deleted.etag, '--data', '[{"lineId":99,"quantity":1}]'], env);
    expect(refused.code).toBe(ExitCode.Client);
    expect(refused.stderr).toMatch(/-> 400/);
    expect((await runCli(['lines', 'delete', order, '--ids', '2'], env)).code).toBe(ExitCode.Usage);
  }, 120_000);

  it('prints a read view of an order as JSON or a table; an unknown view is a usage error', async () => {
    const item = await runCli(['inventory', 'put', 'ITEM-T', '--data', '{"description":"Taxed item"}'], env);
    expect(item.code).toBe(ExitCode.Ok);
    const response = await api('POST', '/api/v3/SalesOrders', {
      type: 'SO',
      customer: { id: customer },
      orderLines: [{ inventoryId: 'ITEM-T', quantity: 3, unitPrice: '33.33', taxCategoryId: 'GOODS' }],
      taxes: [{ taxId: 'VAT25', taxCategoryId: 'GOODS', taxRate: 25 }],
    });
    expect(response.status).toBe(201);
    const { orderId } = (await response.json()) as { orderId: string };
    const json = await runCli(['order-view', 'tax', `SO/${orderId}`], env);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(ExitCode.Ok);
    expect(JSON.parse(json.stdout.toString())).toEqual([expect.objectContaining({ taxId: 'VAT25', taxableAmount: 99.99, taxAmount: 25 })]);
    const table = await runCli(['order-view', 'tax', `SO/${orderId}`, '-o', 'table'], env);
    expect(table.stdout.toString().split('\n')[0]).toMatch(/^taxId\s+taxType\s+taxRate/);
    expect((await runCli(['order-view', 'lines', `SO/${orderId}`], env)).code).toBe(ExitCode.Usage);
    const missing = await runCli(['order-view', 'commissions', 'SO/999999'], env);
    expect(missing.code).toBe(ExitCode.Client);
    expect(missing.stderr).toMatch(/GET \/api\/v3\/SalesOrders\/SO\/999999\/commissions -> 404/);
  }, 120_000);
});
