import { demoBasePrices } from './seed-prices';
import { type SeedCustomer, seedFetch, sendNamingCustomers } from './seed-requests';

/**
 * Demo sales orders, created through the public API like every other seed (POST, then PATCH with
 * the ETag POST returned). Orders need the sales-order service to know the customer, which it
 * learns from the customer events, so each POST waits for its customer to arrive there.
 */

export interface SeedSalesOrdersOptions {
  baseUrl: string;
  headers: Record<string, string>;
  customers: SeedCustomer[];
  /** Orders to create (default 40): most small, some with hundreds of lines, three with 500+. */
  orders?: number;
  seed?: number;
}

// Deterministic pseudo-random numbers (mulberry32), so every seeded system looks the same.
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PRODUCTS: Array<[string, string, string, number]> = [
  ['BOLT-M8-40', 'Hex bolt M8x40, zinc', 'PCS', 0.42],
  ['NUT-M8', 'Hex nut M8', 'PCS', 0.09],
  ['WASHER-8', 'Washer 8 mm', 'PCS', 0.04],
  ['PLANK-2x4', 'Pine plank 48x98, per metre', 'M', 3.85],
  ['PAINT-W10', 'Exterior paint white, 10 l', 'PCS', 89.9],
  ['CABLE-3G25', 'Installation cable 3G2.5', 'M', 1.27],
  ['PIPE-CU15', 'Copper pipe 15 mm', 'M', 11.6],
  ['SALMON-FR', 'Fresh salmon fillet', 'KG', 14.35],
  ['COFFEE-1K', 'Coffee beans, 1 kg', 'PCS', 17.5],
  ['GLOVE-L', 'Work gloves, size L', 'PAIR', 4.2],
  ['PALLET-EU', 'EUR pallet', 'PCS', 12.0],
  ['TAPE-50', 'Packing tape 50 mm', 'ROLL', 2.35],
];
const DESCRIPTIONS = ['Spring restock', 'Site delivery', 'Weekly order', 'Project materials', 'Replacement parts', null];
const WAREHOUSES = ['MAIN', 'NORTH', 'SOUTH'];

/** Line counts: realistic spread plus three large orders (500, 800 and 1200 lines). */
export function demoLineCounts(orders: number, next: () => number): number[] {
  return Array.from({ length: orders }, (_, i) => {
    if (i === 3) return 500;
    if (i === 11) return 800;
    if (i === 20) return 1200;
    if (i % 7 === 0) return 50 + Math.floor(next() * 250);
    return 1 + Math.floor(next() * 25);
  });
}

/** The demo products with their price in NOK, the base prices and price list are made from. */
export function demoProducts(): Array<{ inventoryId: string; nok: number }> {
  return PRODUCTS.map(([inventoryId, , , nok]) => ({ inventoryId, nok }));
}

/** Order lines; about one in four leaves its price and discount to the price rules, as a client of the v3 document may. */
export function demoOrderLines(count: number, next: () => number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, () => {
    const [inventoryId, description, unitOfMeasure, price] = PRODUCTS[Math.floor(next() * PRODUCTS.length)];
    const byWeight = unitOfMeasure === 'KG' || unitOfMeasure === 'M';
    const quantity = byWeight ? (1 + Math.floor(next() * 400) / 10).toFixed(1) : String(1 + Math.floor(next() * 48));
    const discountPercent = [0, 0, 0, 5, 10, 12.5][Math.floor(next() * 6)];
    const unitPrice = (price * (0.9 + next() * 0.2)).toFixed(2);
    return {
      inventoryId,
      description,
      quantity,
      ...(next() < 0.25 ? {} : { unitPrice, discountPercent }),
      unitOfMeasure,
      warehouseId: WAREHOUSES[Math.floor(next() * WAREHOUSES.length)],
      taxCategoryId: inventoryId === 'SALMON-FR' || inventoryId === 'COFFEE-1K' ? 'FOOD' : 'STD',
    };
  });
}

/**
 * What the read views (`.../commissions`, `/discounts`, `/tax`, `/rotrut`, `/shipment`) show for
 * demo order i: every third order has a salesperson, Norwegian VAT (25 %, 15 % on food) on its
 * lines' tax categories and a document discount; some a shipment, a few a ROT deduction on line 1.
 */
export function demoViewParts(i: number): Record<string, unknown> {
  if (i % 3 !== 1) return {};
  return {
    salesPersonId: ['SP01', 'SP02', 'SP03'][i % 3],
    commissionPercent: '3.5',
    discounts: [{ discountId: i % 2 ? 'LOYAL5' : 'FIXED50', ...(i % 2 ? { discountPercent: 5 } : { discountAmount: '50.00' }) }],
    taxes: [
      { taxId: 'VAT25', taxCategoryId: 'STD', taxRate: 25 },
      { taxId: 'VAT15', taxCategoryId: 'FOOD', taxRate: 15 },
    ],
    ...(i % 4 === 1 ? { shipments: [{ id: `SH-${1000 + i}`, date: `2026-04-${String(1 + (i % 28)).padStart(2, '0')}`, type: 'Issue', quantity: 1, weight: '12.5' }] } : {}),
    ...(i % 10 === 7 ? { rotRut: { type: 'ROT', distributedAutomatically: true, estate: `Demo 1:${i}`, distribution: [{ lineId: 1, personalId: '19800101-1234' }] } } : {}),
  };
}

/** The demo inventory item of each product (PUT /api/v3/Inventory/{inventoryId}): stock in the warehouses, web-shop flag and colour attributes, base prices. */
export function demoInventoryItems(): Array<{ inventoryId: string; item: Record<string, unknown> }> {
  return PRODUCTS.map(([inventoryId, description, baseUnit], i) => ({
    inventoryId,
    item: {
      description,
      baseUnit,
      prices: demoBasePrices(PRODUCTS[i][3]),
      attributes: { WEBSHOP: i % 3 === 2 ? '0' : '1', ...(i % 4 === 0 ? { COLOUR: ['grey', 'white', 'black'][i % 3] } : {}) },
      availability: WAREHOUSES.slice(0, 1 + (i % WAREHOUSES.length)).map((warehouseId, w) => {
        const onHand = 40 + ((i * 37 + w * 11) % 400);
        return {
          warehouseId,
          description: `${warehouseId[0]}${warehouseId.slice(1).toLowerCase()} warehouse`,
          quantityOnHand: onHand,
          quantityAvailable: onHand - (i % 5) * 3,
          quantityAvailableForShipment: onHand - (i % 5) * 3,
          quantityPurchaseOrders: (i % 4) * 25,
          estimatedTotalCost: Math.round(onHand * PRODUCTS[i][3] * 60) / 100,
          locations: [
            { locationId: `${warehouseId}-A${1 + (i % 4)}`, description: 'Shelf', quantityOnHand: onHand - 10, quantityAvailable: onHand - 10 },
            { locationId: `${warehouseId}-R1`, description: 'Receiving', quantityOnHand: 10, quantityAvailable: 10 },
          ],
        };
      }),
    },
  }));
}

/**
 * Creates the company's inventory items (every product the demo orders use) through the public API.
 * Order lines may only name items that exist, so this runs before the orders; the README's examples use them.
 */
export async function seedInventory(options: { baseUrl: string; headers: Record<string, string> }): Promise<number> {
  for (const { inventoryId, item } of demoInventoryItems()) {
    const response = await seedFetch(`${options.baseUrl}/api/v3/Inventory/${encodeURIComponent(inventoryId)}`, {
      method: 'PUT',
      headers: options.headers,
      body: JSON.stringify(item),
    });
    if (response.status !== 201 && response.status !== 200) throw new Error(`Seeding inventory item ${inventoryId} failed with ${response.status}: ${await response.text()}`);
  }
  return PRODUCTS.length;
}

/** Creates the demo orders; returns how many were created. */
export async function seedSalesOrders(options: SeedSalesOrdersOptions): Promise<number> {
  const next = random(options.seed ?? 7);
  const customers = options.customers.filter((c) => c.status !== 'Inactive');
  if (customers.length === 0) return 0;
  const counts = demoLineCounts(options.orders ?? 40, next);
  let created = 0;
  for (const [i, lines] of counts.entries()) {
    const customer = customers[i % customers.length];
    const day = String(1 + (i % 28)).padStart(2, '0');
    const body = {
      type: i % 9 === 4 ? 'QT' : 'SO',
      customer: { id: customer.number, order: next() < 0.6 ? `PO-${20000 + i}` : null, refNo: next() < 0.3 ? `REF-${i}` : null },
      date: `2026-03-${day}`,
      requestOn: `2026-04-${day}`,
      description: DESCRIPTIONS[i % DESCRIPTIONS.length],
      status: i % 6 === 5 ? 'Hold' : 'Open',
      shipping: { address: { line1: `Industriveien ${1 + i}`, postalCode: '0580', city: 'Oslo', countryId: 'NO' } },
      paymentSettings: { terms: { id: '30D', description: '30 days' } },
      orderLines: demoOrderLines(lines, next),
      ...demoViewParts(i),
    };
    const response = await sendNamingCustomers('POST', `${options.baseUrl}/api/v3/SalesOrders`, options.headers, body);
    if (response.status !== 201) throw new Error(`Seeding a sales order failed with ${response.status}: ${await response.text()}`);
    created++;
    // Move some orders along, the way a client would: PATCH with the ETag the POST returned.
    const later = [undefined, undefined, undefined, 'BackOrder', 'Completed', 'Cancelled'][i % 6];
    if (later && body.status === 'Open') {
      const patched = await seedFetch(`${options.baseUrl}${response.headers.get('location')}`, {
        method: 'PATCH',
        headers: { ...options.headers, 'if-match': response.headers.get('etag') ?? '' },
        body: JSON.stringify({ status: later }),
      });
      if (patched.status !== 202) throw new Error(`Seeding a sales order change failed with ${patched.status}: ${await patched.text()}`);
    }
  }
  return created;
}
