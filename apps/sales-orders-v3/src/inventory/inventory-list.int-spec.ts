import { B, BOLT, LIST, ids, useInventoryTestApp } from '../testing/inventory-test-kit';

describe('GET /api/v3/Inventory', () => {
  // LIST's catalogue, created in the order the list shows. 'filters by modifiedSince' writes NUT and
  // SCREW again, so the tests keep their original order: each sees LIST as it did before the split.
  const { send, put, list, problemOf } = useInventoryTestApp('inventory-list', async ({ put }) => {
    await put('BOLT', BOLT, LIST);
    await put('NUT', { description: 'Nut M8', attributes: { WEBSHOP: '1', COLOUR: 'blue' }, availability: [{ warehouseId: 'EAST', quantityOnHand: 5, locations: [{ locationId: 'E1', quantityOnHand: 5 }] }] }, LIST);
    await put('WASHER', { description: 'Washer', attributes: { WEBSHOP: '0' } }, LIST);
    await put('SCREW', { description: 'Screw', attributes: { COLOUR: 'red' }, availability: [{ warehouseId: 'MAIN', quantityOnHand: 7 }] }, LIST);
  });

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
