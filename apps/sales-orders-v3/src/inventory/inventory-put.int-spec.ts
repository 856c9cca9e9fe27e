import { A, BOLT, conforms, type Item, useInventoryTestApp } from '../testing/inventory-test-kit';

describe('PUT /api/v3/Inventory/{inventoryId} (extension)', () => {
  const { app, put, list, problemOf } = useInventoryTestApp('inventory-put');

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
    const sequences = await app().sql.query(
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
    const headers = { ...(await app().auth.headers({ company: A, applicationType: null, scope: 'erp:read' })), 'content-type': 'application/json' };
    const response = await app().http.request('/api/v3/Inventory/X', { method: 'PUT', headers, body: '{}' });
    expect(response.status).toBe(403);
  });
});
