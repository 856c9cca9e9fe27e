import { publishedSchemaValidator } from '@erp/testing';
import published from '../../reference/published-v3-inventory.json';
import { insertCustomerSnapshots, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
const B = '1000002';
const LIST = '1000003';
let t: SalesOrdersTestApp;
const conforms = publishedSchemaValidator(published);

interface Item {
  internalId: number;
  inventoryId: string;
  description: string | null;
  baseUnit: string | null;
  availability: Array<{ warehouseId: string; internalWarehouseId: number; lastModified: string; quantityOnHand: number; estimatedUnitCost: number | null; locations?: Array<{ locationId: string; lastModified: string }> }>;
  attributes?: Record<string, string>;
}
interface Page {
  value: Item[];
  totalCount: number;
  nextPage: string | null;
}
interface Problem {
  status: number;
  errors: Record<string, string[]>;
  details: Array<{ code: string; parameters: { property: string } }>;
}

async function send(method: string, path: string, body?: unknown, company = A, extra: Record<string, string> = {}): Promise<Response> {
  const headers = await t.headers(company, extra);
  if (body === undefined) delete headers['content-type'];
  return t.http.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function put(id: string, body: unknown, company = A): Promise<Response> {
  return send('PUT', `/api/v3/Inventory/${encodeURIComponent(id)}`, body, company);
}

async function list(query: string, company = LIST): Promise<Page> {
  const response = await send('GET', `/api/v3/Inventory${query}`, undefined, company);
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status: 200 });
  const page = JSON.parse(text) as Page;
  expect(conforms('InventoryItemAvailabilityDtoPagedResult', page)).toEqual([]);
  return page;
}

async function problemOf(response: Response, status = 400): Promise<Problem> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await response.json()) as Problem;
  expect(conforms('ProblemDetails', problem)).toEqual([]);
  return problem;
}

const ids = (page: Page) => page.value.map((i) => i.inventoryId);

const BOLT = {
  description: 'Bolt M8',
  baseUnit: 'PCS',
  attributes: { WEBSHOP: '1', COLOUR: 'red' },
  availability: [
    { warehouseId: 'MAIN', description: 'Main warehouse', quantityOnHand: 40, quantityAvailable: 35, estimatedTotalCost: 100, locations: [{ locationId: 'A1', quantityOnHand: 30 }, { locationId: 'B2', quantityOnHand: 10 }] },
    { warehouseId: 'EAST', quantityOnHand: 0 },
  ],
};

beforeAll(async () => {
  t = await startSalesOrdersTestApp('inventory');
  await insertCustomerSnapshots(t.sql, A, [{ id: '10001' }]);
  await insertCustomerSnapshots(t.sql, B, [{ id: '10001' }]);
  await put('BOLT', BOLT, LIST);
  await put('NUT', { description: 'Nut M8', attributes: { WEBSHOP: '1', COLOUR: 'blue' }, availability: [{ warehouseId: 'EAST', quantityOnHand: 5, locations: [{ locationId: 'E1', quantityOnHand: 5 }] }] }, LIST);
  await put('WASHER', { description: 'Washer', attributes: { WEBSHOP: '0' } }, LIST);
  await put('SCREW', { description: 'Screw', attributes: { COLOUR: 'red' }, availability: [{ warehouseId: 'MAIN', quantityOnHand: 7 }] }, LIST);
});

afterAll(async () => {
  expect(t.http.serverErrors()).toEqual([]);
  await t.close();
});

describe('PUT /api/v3/Inventory/{inventoryId} (extension)', () => {
  it('creates an item (201, Location) and replaces it (200); the answer is the item with locations and attributes, in the published shape', async () => {
    const created = await put('CRATE', BOLT);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/v3/Inventory?inventoryId=CRATE');
    const item = (await created.json()) as Item;
    expect(conforms('InventoryItemAvailabilityDto', item)).toEqual([]);
    expect(item).toMatchObject({ inventoryId: 'CRATE', description: 'Bolt M8', baseUnit: 'PCS', attributes: { WEBSHOP: '1', COLOUR: 'red' } });
    expect(item.availability.map((w) => [w.warehouseId, w.quantityOnHand, w.estimatedUnitCost, w.locations?.map((l) => l.locationId)])).toEqual([
      ['MAIN', 40, 2.5, ['A1', 'B2']],
      ['EAST', 0, null, []],
    ]);

    const replaced = await put('CRATE', { description: 'Crate' });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ inventoryId: 'CRATE', internalId: item.internalId, description: 'Crate', baseUnit: null, availability: [], attributes: {} });
  });

  it('keeps a warehouse lastModified while its figures are unchanged and moves it when they change', async () => {
    const first = (await (await put('TRACKED', BOLT)).json()) as Item;
    await new Promise((r) => setTimeout(r, 5));
    const same = (await (await put('TRACKED', { ...BOLT, description: 'renamed' })).json()) as Item;
    expect(same.availability.map((w) => w.lastModified)).toEqual(first.availability.map((w) => w.lastModified));
    const moved = { ...BOLT, availability: [{ ...BOLT.availability[0], locations: [{ locationId: 'A1', quantityOnHand: 29 }, { locationId: 'B2', quantityOnHand: 10 }] }, BOLT.availability[1]] };
    const changed = (await (await put('TRACKED', moved)).json()) as Item;
    expect(changed.availability[0].lastModified > first.availability[0].lastModified).toBe(true);
    expect(changed.availability[0].locations![0].lastModified).toBe(changed.availability[0].lastModified);
    expect(changed.availability[0].locations![1].lastModified).toBe(first.availability[0].locations![1].lastModified);
    expect(changed.availability[1].lastModified).toBe(first.availability[1].lastModified);
  });

  it('answers 400 listing every problem of the body, and stores nothing', async () => {
    const problem = await problemOf(
      await put('BAD', {
        description: 5,
        colour: 'red',
        attributes: { 'no spaces': 'x' },
        availability: [{ quantityOnHand: 'lots' }, { warehouseId: 'W', locations: [{ locationId: 'L' }, { locationId: 'L' }] }, { warehouseId: 'W' }],
      }),
    );
    expect(Object.keys(problem.errors).sort()).toEqual(
      [
        'attributes',
        'availability[0].quantityOnHand',
        'availability[0].warehouseId',
        'availability[1].locations[1].locationId',
        'availability[2].warehouseId',
        'colour',
        'description',
      ].sort(),
    );
    const rules = await problemOf(await put('BAD', { availability: [{ warehouseId: 'W', locations: [{ locationId: 'L' }, { locationId: 'L' }] }, { warehouseId: 'W' }] }));
    expect(Object.keys(rules.errors).sort()).toEqual(['availability[0].locations[1].locationId', 'availability[1].warehouseId']);
    // The path's problem, the body's shape and the repeated codes, all in one 400.
    const all = await problemOf(await put('x'.repeat(31), { baseUnit: 'far too long a unit', availability: [{ warehouseId: 'W' }, { warehouseId: 'W' }, 7] }));
    expect(Object.keys(all.errors).sort()).toEqual(['availability[1].warehouseId', 'availability[2]', 'baseUnit', 'inventoryId']);
    expect((await list('?inventoryId=BAD', A)).totalCount).toBe(0);
  });

  it('computes estimatedUnitCost in decimals, and none without stock', async () => {
    const response = await put('UNIT-COST', { availability: [
      { warehouseId: 'MAIN', quantityOnHand: 3, estimatedTotalCost: 0.3 },
      { warehouseId: 'EAST', quantityOnHand: -2, estimatedTotalCost: 5 },
    ] });
    const item = (await response.json()) as Item;
    expect(item.availability.map((w) => w.estimatedUnitCost)).toEqual([0.1, null]);
  });

  it('uses no identity values on a replace: the next new item, warehouse and location follow on without a gap', async () => {
    // An INSERT ... ON CONFLICT takes a sequence value per row tried; internalId is the document's
    // int32, and the sequences are shared by every company, so replaces must not consume them.
    const first = (await (await put('SEQ-1', BOLT)).json()) as Item;
    for (let i = 0; i < 5; i++) expect((await put('SEQ-1', BOLT)).status).toBe(200);
    const second = (await (await put('SEQ-2', { availability: [{ warehouseId: 'SEQ-WH', quantityOnHand: 1, locations: [{ locationId: 'SEQ-L', quantityOnHand: 1 }] }] })).json()) as Item;
    expect(second.internalId).toBe(first.internalId + 1);
    const sequences = await t.sql.query(
      `SELECT (SELECT max(internal_id) FROM inventory_warehouses) AS warehouses, (SELECT max(internal_id) FROM inventory_locations) AS locations,
              (SELECT last_value FROM inventory_warehouses_internal_id_seq) AS warehouse_seq, (SELECT last_value FROM inventory_locations_internal_id_seq) AS location_seq`,
    );
    expect(Number(sequences.rows[0].warehouse_seq)).toBe(Number(sequences.rows[0].warehouses));
    expect(Number(sequences.rows[0].location_seq)).toBe(Number(sequences.rows[0].locations));
  });

  it('answers 201 to exactly one of concurrent PUTs of a new item, 200 to the others', async () => {
    const statuses = await Promise.all(Array.from({ length: 6 }, () => put('RACED', { description: 'raced' }).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, 200, 200, 200, 200, 201]);
  });

  it('needs erp:write', async () => {
    const headers = { ...(await t.auth.headers({ company: A, applicationType: null, scope: 'erp:read' })), 'content-type': 'application/json' };
    const response = await t.http.request('/api/v3/Inventory/X', { method: 'PUT', headers, body: '{}' });
    expect(response.status).toBe(403);
  });
});

describe('GET /api/v3/Inventory', () => {
  it('lists every item in creation order without locations or attributes unless expanded', async () => {
    const page = await list('');
    expect(ids(page)).toEqual(['BOLT', 'NUT', 'WASHER', 'SCREW']);
    expect(page).toMatchObject({ totalCount: 4, nextPage: null });
    expect(page.value[0].attributes).toBeUndefined();
    expect(page.value[0].availability[0].locations).toBeUndefined();
  });

  it('expands locations and attributes (comma-separated, repeated, any case, All, None)', async () => {
    for (const expand of ['?expand=location,attribute', '?expand=Location&expand=Attribute', '?expand=ALL', '?expand=all&expand=none']) {
      const bolt = (await list(`${expand}&inventoryId=BOLT`)).value[0];
      expect(bolt.attributes).toEqual({ WEBSHOP: '1', COLOUR: 'red' });
      expect(bolt.availability[0].locations!.map((l) => l.locationId)).toEqual(['A1', 'B2']);
    }
    const onlyLocations = (await list('?expand=location&inventoryId=BOLT')).value[0];
    expect(onlyLocations.attributes).toBeUndefined();
    expect((await list('?expand=None&inventoryId=BOLT')).value[0].availability[0].locations).toBeUndefined();
  });

  it('filters by inventoryId (repeated; the name in any case, as in the document sample)', async () => {
    expect(ids(await list('?inventoryId=NUT&InventoryId=BOLT'))).toEqual(['BOLT', 'NUT']);
    expect(ids(await list('?inventoryId=nut'))).toEqual([]);
  });

  it('filters by warehouseId and locationId, showing only those warehouses and locations', async () => {
    const main = await list('?warehouseId=MAIN&expand=location');
    expect(ids(main)).toEqual(['BOLT', 'SCREW']);
    expect(main.value[0].availability.map((w) => w.warehouseId)).toEqual(['MAIN']);
    expect(ids(await list('?warehouseId=MAIN&warehouseId=EAST'))).toEqual(['BOLT', 'NUT', 'SCREW']);
    const b2 = await list('?locationId=B2&expand=location');
    expect(ids(b2)).toEqual(['BOLT']);
    expect(b2.value[0].availability.map((w) => [w.warehouseId, w.locations!.map((l) => l.locationId)])).toEqual([['MAIN', ['B2']]]);
  });

  it('filters by attributeFilter: the same id twice is either, different ids are both', async () => {
    expect(ids(await list('?attributeFilter=WEBSHOP:1'))).toEqual(['BOLT', 'NUT']);
    expect(ids(await list('?attributeFilter=WEBSHOP:1&attributeFilter=WEBSHOP:0'))).toEqual(['BOLT', 'NUT', 'WASHER']);
    expect(ids(await list('?attributeFilter=WEBSHOP:1&attributeFilter=COLOUR:red'))).toEqual(['BOLT']);
    expect(ids(await list('?attributeFilter=COLOUR:green'))).toEqual([]);
  });

  it('filters by modifiedSince: items whose warehouse availability changed at or after it', async () => {
    const before = await list('?expand=all');
    const latest = before.value.flatMap((i) => i.availability.map((w) => w.lastModified)).sort().at(-1)!;
    await new Promise((r) => setTimeout(r, 5));
    await put('NUT', { description: 'Nut M8 (renamed)', attributes: { WEBSHOP: '1', COLOUR: 'blue' }, availability: [{ warehouseId: 'EAST', quantityOnHand: 5, locations: [{ locationId: 'E1', quantityOnHand: 5 }] }] }, LIST);
    const since = new Date(Date.parse(latest) + 1).toISOString();
    expect(ids(await list(`?modifiedSince=${since}`))).toEqual([]);
    await put('SCREW', { description: 'Screw', attributes: { COLOUR: 'red' }, availability: [{ warehouseId: 'MAIN', quantityOnHand: 8 }] }, LIST);
    expect(ids(await list(`?modifiedSince=${since}`))).toEqual(['SCREW']);
    const boltMain = before.value.find((i) => i.inventoryId === 'BOLT')!.availability[0].lastModified;
    expect(ids(await list(`?modifiedSince=${encodeURIComponent(boltMain.replace('Z', '+00:00'))}&warehouseId=MAIN`))).toEqual(['BOLT', 'SCREW']);
    expect(ids(await list(`?modifiedSince=${since}&warehouseId=EAST`))).toEqual([]);
  });

  it('pages with 0-based pageIndex and pageSize; nextPage keeps the filters; past the end is empty', async () => {
    const first = await list('?attributeFilter=WEBSHOP:1&attributeFilter=WEBSHOP:0&pageSize=2');
    expect(ids(first)).toEqual(['BOLT', 'NUT']);
    expect(first.totalCount).toBe(3);
    expect(first.nextPage).toBe('/api/v3/Inventory?attributeFilter=WEBSHOP%3A1&attributeFilter=WEBSHOP%3A0&pageSize=2&pageIndex=1');
    const second = await list(first.nextPage!.slice('/api/v3/Inventory'.length));
    expect(ids(second)).toEqual(['WASHER']);
    expect(second.nextPage).toBeNull();
    expect(await list('?pageSize=2&pageIndex=9')).toEqual({ value: [], totalCount: 4, nextPage: null });
    expect(ids(await list('?pageSize=100000'))).toHaveLength(4);
  });

  it('answers 400 listing every problem of the query', async () => {
    const problem = await problemOf(await send('GET', '/api/v3/Inventory?expand=shelf&modifiedSince=yesterday&attributeFilter=WEBSHOP&attributeFilter=ok:1&pageSize=0&pageIndex=x&colour=red'));
    expect(Object.keys(problem.errors).sort()).toEqual(['attributeFilter[0]', 'colour', 'expand', 'modifiedSince', 'pageIndex', 'pageSize']);
    // U+0000 anywhere in a URL is refused before the endpoint; other control characters by it.
    await problemOf(await send('GET', '/api/v3/Inventory?attributeFilter=WEBSHOP:%00'));
    const control = await problemOf(await send('GET', '/api/v3/Inventory?attributeFilter=WEBSHOP:%01&inventoryId=%01'));
    expect(Object.keys(control.errors).sort()).toEqual(['attributeFilter[0]', 'inventoryId[0]']);
  });

  it("never shows another company's items", async () => {
    expect(await list('', B)).toEqual({ value: [], totalCount: 0, nextPage: null });
    expect(ids(await list('?inventoryId=BOLT', B))).toEqual([]);
  });
});

describe('order lines must reference an existing item', () => {
  const order = (lines: unknown[]) => ({ type: 'SO', customer: { id: '10001' }, orderLines: lines });

  beforeAll(async () => {
    await putInventoryItems(t, A, ['KNOWN', 'OTHER']);
  });

  it('POST: every unknown item is listed with the other problems, and nothing is created', async () => {
    const problem = await problemOf(
      await send('POST', '/api/v3/SalesOrders', order([
        { inventoryId: 'KNOWN', quantity: 1, unitPrice: 1 },
        { inventoryId: 'MISSING', quantity: 1, unitPrice: 1 },
        { inventoryId: 'BOLT', quantity: 0, unitPrice: 1 },
      ])),
    );
    expect(problem.errors).toEqual({
      'orderLines[1].inventoryId': [expect.stringContaining('inventory item MISSING does not exist')],
      'orderLines[2].inventoryId': [expect.stringContaining('inventory item BOLT does not exist')],
      'orderLines[2].quantity': [expect.any(String)],
    });
    expect(problem.details.find((d) => d.parameters.property === 'orderLines[1].inventoryId')?.code).toBe('0007-UnknownReference');
    expect((await t.sql.query(`SELECT 1 FROM sales_orders WHERE company_id = $1`, [A])).rowCount).toBe(0);
  });

  it("an item of another company is unknown", async () => {
    await putInventoryItems(t, B, ['ONLY-B']);
    const problem = await problemOf(await send('POST', '/api/v3/SalesOrders', order([{ inventoryId: 'ONLY-B', quantity: 1, unitPrice: 1 }])));
    expect(Object.keys(problem.errors)).toEqual(['orderLines[0].inventoryId']);
    expect((await send('POST', '/api/v3/SalesOrders', order([{ inventoryId: 'ONLY-B', quantity: 1, unitPrice: 1 }]), B)).status).toBe(201);
  });

  it('PATCH (insert and update), POST .../lines: unknown items are 400 at their place, nothing applied; known ones are accepted', async () => {
    const created = await send('POST', '/api/v3/SalesOrders', order([{ inventoryId: 'KNOWN', quantity: 1, unitPrice: 1 }]));
    expect(created.status).toBe(201);
    const path = created.headers.get('location')!;
    const etag = created.headers.get('etag')!;

    const patch = await problemOf(
      await send('PATCH', path, { description: 'x', lines: [{ operation: 'update', lineId: 1, inventoryId: 'NOPE' }, { operation: 'insert', inventoryId: 'GONE', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': etag }),
    );
    expect(Object.keys(patch.errors)).toEqual(['lines[0].inventoryId', 'lines[1].inventoryId']);
    const add = await problemOf(await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'OTHER', quantity: 1, unitPrice: 1 }, { inventoryId: 'NOPE', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': etag }));
    expect(Object.keys(add.errors)).toEqual(['lines[1].inventoryId']);
    // A stale If-Match is still answered first (412 before the body's problems).
    expect((await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'NOPE', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': '"1"' })).status).toBe(412);

    const unchanged = await send('GET', `${path}?expand=lines`);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(((await unchanged.json()) as { lines: unknown[] }).lines).toHaveLength(1);

    const ok = await send('PATCH', path, { lines: [{ operation: 'update', lineId: 1, inventoryId: 'OTHER' }, { operation: 'insert', inventoryId: 'KNOWN', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': etag });
    expect(ok.status).toBe(202);
    const added = await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'OTHER', quantity: 2, unitPrice: 1 }] }, A, { 'if-match': ok.headers.get('etag')! });
    expect(added.status).toBe(202);
  });
});
