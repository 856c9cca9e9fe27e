import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENTED_EXTENSIONS } from './support/v3-contract-extensions';
import type { Violation } from './support/v3-contract';
import { type Call, useV3ContractRun } from './support/v3-contract-run';

/** A test's title: the operation and what it does. */
const named = (operationId: string, what: string) => `${operationId}: ${what}`;

const CONVENTIONS = readFileSync(path.join(__dirname, '../../../docs/api-conventions.md'), 'utf8');

// The steps run in order against one system and build on each other (the order POSTed first is read,
// changed and finally deleted); the last two check the whole run (every operation called, every
// documented extension seen), so they stay in this one file, after every other step.
describe('the published v3 document, operation by operation, through the gateway', () => {
  const { contract, seen, called, fivexx, need, exchange, expectConforms, expectOperation, today, inDays, newSalesOrder, orderParams, etagOf, createOrder, everyExpansion } =
    useV3ContractRun();

  it('SalesOrders_CreateNewItem_: POST an order', async () => {
    const result = await createOrder();
    expect(result.response.headers['location']).toBe(`/api/v3/SalesOrders/${need('type')}/${need('orderId')}`);
    expectConforms(result);
  }, 120_000);

  it('SalesOrders_GetList_: the list, with every documented parameter', async () => {
    const response = await expectOperation(
      {
        operationId: 'SalesOrders_GetList_',
        query: [
          ['customerId', need('customerNumber')],
          ['status', 'Open'],
          ['modifiedSince', today.toISOString()],
          ['pageSize', '10'],
          ['pageIndex', '0'],
          ['orderBy', 'lastModified asc'],
          ['filter', need('orderId')],
        ],
      },
      200,
    );
    expect((response.body as { totalCount: number }).totalCount).toBe(1);
  });

  it('SalesOrders_GetList_type: the list of one type', async () => {
    const response = await expectOperation({ operationId: 'SalesOrders_GetList_type', pathParams: { type: need('type') }, query: [['orderBy', 'created desc']] }, 200);
    expect((response.body as { value: unknown[] }).value).toHaveLength(1);
  });

  it('SalesOrders_GetList_ and _type with expand=all: every item a SalesOrderDto (an extension)', async () => {
    for (const call of [
      { operationId: 'SalesOrders_GetList_', query: [['expand', 'all']] as Array<[string, string]> },
      { operationId: 'SalesOrders_GetList_type', pathParams: { type: need('type') }, query: [['expand', 'all']] as Array<[string, string]> },
    ]) {
      const response = await expectOperation(call, 200);
      expect((response.body as { value: Array<{ lines?: unknown[] }> }).value[0]?.lines).toHaveLength(2);
    }
  });

  it('SalesOrders_GetItemAsync_typeorderId: the order, without expand, with None, with each expansion and with All', async () => {
    const plain = await expectOperation({ operationId: 'SalesOrders_GetItemAsync_typeorderId', pathParams: orderParams() }, 200);
    expect(plain.headers['etag']).toBe(need('etag'));
    const none = await expectOperation({ operationId: 'SalesOrders_GetItemAsync_typeorderId', pathParams: orderParams(), query: [['expand', 'None']] }, 200);
    expect(none.body).toEqual(plain.body);
    // A client may ask for any of the document's response media types (text/json, text/plain): the
    // answer must still be one the document declares (checked by expectOperation), never a 406.
    for (const accept of ['text/json', 'text/plain']) {
      await expectOperation({ operationId: 'SalesOrders_GetItemAsync_typeorderId', pathParams: orderParams(), accept }, 200);
    }
    await expectOperation(
      { operationId: 'SalesOrders_GetItemAsync_typeorderId', pathParams: orderParams(), query: everyExpansion().map((value) => ['expand', value] as [string, string]) },
      200,
    );
    const all = await expectOperation({ operationId: 'SalesOrders_GetItemAsync_typeorderId', pathParams: orderParams(), query: [['expand', 'All']] }, 200);
    expect((all.body as { lines?: unknown[] }).lines).toHaveLength(2);
  });

  it('SalesOrders_Patch_typeorderId: PATCH header fields with If-Match', async () => {
    const response = await expectOperation(
      {
        operationId: 'SalesOrders_Patch_typeorderId',
        pathParams: orderParams(),
        ifMatch: need('etag'),
        body: { description: 'Spring assortment, revised', note: 'Deliver before noon', requestOn: inDays(9), status: 'Hold' },
      },
      202,
    );
    etagOf(response);
  });

  it('SalesOrders_GetItemLines_typeorderIdlines: the lines, paged', async () => {
    const response = await expectOperation({ operationId: 'SalesOrders_GetItemLines_typeorderIdlines', pathParams: orderParams(), query: [['pageSize', '1'], ['pageIndex', '1']] }, 200);
    expect((response.body as { totalCount: number }).totalCount).toBe(2);
  });

  it('SalesOrders_GetItemLine_typeorderIdlineslineId: one line', async () => {
    await expectOperation({ operationId: 'SalesOrders_GetItemLine_typeorderIdlineslineId', pathParams: { ...orderParams(), lineId: need('lineIds')[0] as number } }, 200);
  });

  it('SalesOrders_AddLines_typeorderIdlines: POST new lines with If-Match', async () => {
    const response = await expectOperation(
      {
        operationId: 'SalesOrders_AddLines_typeorderIdlines',
        pathParams: orderParams(),
        ifMatch: need('etag'),
        body: { lines: [{ inventoryId: need('items')[2], quantity: 12, unitPrice: 7.5, discountPercent: 0, description: 'Crispbread', unitOfMeasure: 'PCS' }] },
      },
      202,
    );
    etagOf(response);
  });

  it('SalesOrders_PatchLines_typeorderIdlines: PATCH a line with If-Match', async () => {
    const response = await expectOperation(
      {
        operationId: 'SalesOrders_PatchLines_typeorderIdlines',
        pathParams: orderParams(),
        ifMatch: need('etag'),
        body: { lines: [{ lineId: need('lineIds')[0], quantity: 6, unitPrice: 99.5, description: 'Oat drink 1 l, barista' }] },
      },
      202,
    );
    etagOf(response);
  });

  it('SalesOrders_DeleteLines_typeorderIdlines: DELETE lines by ids with If-Match', async () => {
    const response = await expectOperation(
      { operationId: 'SalesOrders_DeleteLines_typeorderIdlines', pathParams: orderParams(), ifMatch: need('etag'), query: [['ids', String(need('lineIds')[1])]] },
      202,
    );
    etagOf(response);
  });

  describe.each([
    'SalesOrders_GetItemCommissions_typeorderIdcommissions',
    'SalesOrders_GetItemDiscounts_typeorderIddiscounts',
    'SalesOrders_GetItemRotRut_typeorderIdrotrut',
    'SalesOrders_GetSalesOrderShipment_typeorderIdshipment',
    'SalesOrders_GetItemTax_typeorderIdtax',
  ])('%s', (operationId) => {
    it(named(operationId, 'a read view of the order'), async () => {
      await expectOperation({ operationId, pathParams: orderParams() }, 200);
    });
  });

  it(named('Customers_GetList_', 'the customers, filtered and paged'), async () => {
    const response = await expectOperation(
      { operationId: 'Customers_GetList_', query: [['filter', 'contract foods'], ['pageSize', '10'], ['pageIndex', '0']] },
      200,
    );
    expect((response.body as { value: Array<{ id: string }> }).value.map((c) => c.id)).toContain(need('customerNumber'));
  });

  it(named('Customers_GetCustomerLocationList_customerIdlocations', 'the locations of a customer'), async () => {
    await expectOperation({ operationId: 'Customers_GetCustomerLocationList_customerIdlocations', pathParams: { customerId: need('customerNumber') } }, 200);
  });

  it(named('Inventory_GetList_', 'the inventory items, with every documented parameter'), async () => {
    const [first, second] = need('items');
    await expectOperation(
      {
        operationId: 'Inventory_GetList_',
        query: [
          ['inventoryId', first as string],
          ['inventoryId', second as string],
          ['expand', 'Location'],
          ['expand', 'Attribute'],
          ['modifiedSince', '2020-01-01T00:00:00Z'],
          ['pageSize', '100'],
          ['pageIndex', '0'],
        ],
      },
      200,
    );
  });

  it('prices from the rules: an order and added lines without unitPrice get the item price; hasManualPrice true keeps, false replaces', async () => {
    const [first, second, third] = need('items');
    const order = newSalesOrder() as Record<string, unknown>;
    // As a webshop or EDI feed sends it: item and quantity, the ERP's price (null, as a generated client sends "not set").
    order.orderLines = [{ inventoryId: first, quantity: 3, unitPrice: null, hasManualPrice: null, discountPercent: null }];
    const created = await expectOperation({ operationId: 'SalesOrders_CreateNewItem_', body: order }, 201);
    const { type, orderId, lines } = created.body as { type: string; orderId: string; lines: Array<{ unitPrice: number; extendedPrice: number; hasManualPrice: boolean }> };
    expect(lines.map((l) => [l.unitPrice, l.extendedPrice, l.hasManualPrice])).toEqual([[24.9, 74.7, false]]);
    await expectOperation(
      {
        operationId: 'SalesOrders_AddLines_typeorderIdlines',
        pathParams: { type, orderId },
        ifMatch: created.headers['etag'],
        body: {
          lines: [
            { inventoryId: second, quantity: 2 },
            { inventoryId: third, quantity: 1, unitPrice: 30, hasManualPrice: true },
            { inventoryId: third, quantity: 1, unitPrice: 30, hasManualPrice: false },
          ],
        },
      },
      202,
    );
    const page = await expectOperation({ operationId: 'SalesOrders_GetItemLines_typeorderIdlines', pathParams: { type, orderId } }, 200);
    const added = (page.body as { value: Array<{ unitPrice: number; hasManualPrice: boolean }> }).value;
    expect(added.map((l) => [l.unitPrice, l.hasManualPrice])).toEqual([
      [24.9, false],
      [25.9, false],
      [30, true],
      [26.9, false],
    ]);
  });

  it('error answers: 428 without If-Match, 412 on a stale one, 404 for an order that does not exist', async () => {
    const stale = '"1"';
    const missing = { type: 'SO', orderId: '999999' };
    const writes: Array<[string, unknown]> = [
      ['SalesOrders_Patch_typeorderId', { note: 'x' }],
      ['SalesOrders_AddLines_typeorderIdlines', { lines: [{ inventoryId: need('items')[0], quantity: 1, unitPrice: 1 }] }],
      ['SalesOrders_PatchLines_typeorderIdlines', { lines: [{ lineId: need('lineIds')[0], quantity: 1 }] }],
      ['SalesOrders_DeleteLines_typeorderIdlines', undefined],
      ['SalesOrders_Delete_typeorderId', undefined],
    ];
    const problems: Violation[] = [];
    for (const [operationId, body] of writes) {
      const query: Array<[string, string]> = operationId === 'SalesOrders_DeleteLines_typeorderIdlines' ? [['ids', String(need('lineIds')[0])]] : [];
      for (const [call, status] of [
        [{ operationId, pathParams: orderParams(), query, body }, 428],
        [{ operationId, pathParams: orderParams(), query, body, ifMatch: stale }, 412],
        [{ operationId, pathParams: missing, query, body, ifMatch: '*' }, 404],
      ] as Array<[Call, number]>) {
        const result = await exchange(call);
        expect([operationId, result.response.status]).toEqual([operationId, status]);
        problems.push(...result.unexplained);
      }
    }
    // Every read of an order's path (the document declares 404 for each).
    for (const operation of contract.api.getOperations().filter((o) => o.method === 'get' && o.path.includes('{orderId}'))) {
      const operationId = operation.operationId as string;
      const result = await exchange({ operationId, pathParams: { ...missing, lineId: 1 } });
      expect([operationId, result.response.status]).toEqual([operationId, 404]);
      problems.push(...result.unexplained);
    }
    expectConforms({ unexplained: problems });
  });

  it('400 answers are the document\'s SalesOrderValidationProblemDetails: a quantity of 0, 1001 line ids', async () => {
    const problems: Violation[] = [];
    const order = newSalesOrder() as { orderLines: Array<Record<string, unknown>> };
    order.orderLines[0] = { ...order.orderLines[0], quantity: 0 };
    const ids = Array.from({ length: 1001 }, (_, i) => ['ids', String(i + 1)] as [string, string]);
    for (const call of [
      { operationId: 'SalesOrders_CreateNewItem_', body: order },
      { operationId: 'SalesOrders_DeleteLines_typeorderIdlines', pathParams: orderParams(), ifMatch: need('etag'), query: ids },
    ]) {
      const result = await exchange(call);
      expect([call.operationId, result.response.status]).toEqual([call.operationId, 400]);
      expect((result.response.body as { details?: unknown[] }).details?.length).toBeGreaterThan(0);
      problems.push(...result.unexplained);
    }
    expectConforms({ unexplained: problems });
  });

  it('SalesOrders_Delete_typeorderId: DELETE the order with If-Match', async () => {
    await expectOperation({ operationId: 'SalesOrders_Delete_typeorderId', pathParams: orderParams(), ifMatch: need('etag') }, 202);
  });

  it('takes a body in each media type the document declares for it (application/json, text/json, application/*+json)', async () => {
    const operation = contract.operation('SalesOrders_CreateNewItem_');
    const declared = Object.keys((operation.requestBody as { content: Record<string, unknown> }).content);
    expect(declared.sort()).toEqual(['application/*+json', 'application/json', 'text/json']);
    const problems: Violation[] = [];
    for (const mediaType of declared) {
      const contentType = mediaType.replace('*', 'vnd.erp.sales-order');
      const result = await exchange({ operationId: 'SalesOrders_CreateNewItem_', body: newSalesOrder(), contentType });
      expect([contentType, result.response.status]).toEqual([contentType, 201]);
      problems.push(...result.unexplained);
    }
    expectConforms({ unexplained: problems });
  });

  it('called every operation of the document, and no 5xx', () => {
    expect(contract.operationIds().filter((id) => !called.has(id))).toEqual([]);
    expect(contract.operationIds()).toHaveLength(19);
    expect(fivexx).toEqual([]);
  });

  it('every documented extension is documented and still occurs', () => {
    // Each heading's text up to the next heading, whitespace collapsed (the doc wraps its lines).
    const sections = new Map<string, string>();
    for (const part of CONVENTIONS.split(/^(?=#{2,4} )/m)) {
      const [heading, ...text] = part.split('\n');
      sections.set((heading ?? '').replace(/^#+ /, '').trim(), text.join(' ').replace(/\s+/g, ' '));
    }
    const undocumented = DOCUMENTED_EXTENSIONS.filter((extension) => !sections.get(extension.section)?.includes(extension.mentions));
    expect(undocumented.map((e) => `${e.name}: "${e.mentions}" not in "${e.section}"`)).toEqual([]);
    expect(new Set(DOCUMENTED_EXTENSIONS.map((extension) => extension.name)).size).toBe(DOCUMENTED_EXTENSIONS.length);
    expect(DOCUMENTED_EXTENSIONS.filter((extension) => !seen.has(extension.name)).map((extension) => extension.name)).toEqual([]);
  });
});
