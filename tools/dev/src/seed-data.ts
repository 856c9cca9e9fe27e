import { type DevKeyPair, signDevToken } from '@erp/auth';
import { seedPrices } from './seed-prices';
import { type SeedCustomer, seedFetch } from './seed-requests';
import { demoProducts, seedInventory, seedSalesOrders } from './seed-sales-orders';
import { seedSupplierInvoices } from './seed-supplier-invoices';

export interface SeedOptions {
  baseUrl: string;
  keys: DevKeyPair;
  companyId: string;
  customers?: number;
  /** Demo sales orders for those customers (default 40, some with 500+ lines); 0 for none. */
  salesOrders?: number;
  /** Demo supplier invoices with lines and a small attachment each (default 8); 0 for none. */
  supplierInvoices?: number;
  /** Skip when the company already has customers (npm start seeds only a fresh system). */
  onlyIfEmpty?: boolean;
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

const PREFIXES = ['Nordic', 'Fjord', 'Aurora', 'Baltic', 'Viking', 'Polar', 'Granite', 'Birch', 'Harbor', 'Summit'];
const TRADES = ['Timber', 'Shipping', 'Fisheries', 'Energy', 'Textiles', 'Foods', 'Logistics', 'Robotics', 'Pharma', 'Design'];
const FORMS = ['AS', 'AB', 'Oy', 'ApS', 'Ltd', 'GmbH'];
const CITIES: Array<[string, string, string, string]> = [
  ['Oslo', '0150', 'NO', 'NOK'],
  ['Bergen', '5003', 'NO', 'NOK'],
  ['Stockholm', '111 20', 'SE', 'SEK'],
  ['Gothenburg', '411 04', 'SE', 'SEK'],
  ['Copenhagen', '1050', 'DK', 'DKK'],
  ['Helsinki', '00100', 'FI', 'EUR'],
  ['Hamburg', '20095', 'DE', 'EUR'],
];
const STATUSES = ['Active', 'Active', 'Active', 'Active', 'OnHold', 'CreditHold', 'Inactive'];

export function demoCustomers(count: number, seed = 42): Array<Record<string, unknown>> {
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  return Array.from({ length: count }, (_, i) => {
    const [city, postalCode, country, currency] = pick(CITIES);
    const name = `${pick(PREFIXES)} ${pick(TRADES)} ${pick(FORMS)}`;
    const org = String(900000000 + Math.floor(next() * 99999999));
    return {
      name: i < PREFIXES.length * TRADES.length ? name : `${name} ${i}`,
      status: pick(STATUSES),
      mainAddress: { addressLine1: `${pick(['Storgata', 'Kungsgatan', 'Strøget', 'Mannerheimintie'])} ${1 + Math.floor(next() * 120)}`, postalCode, city, country: { id: country } },
      mainContact: { name: `${pick(['Kari', 'Lars', 'Ingrid', 'Mikko', 'Freja', 'Anders'])} ${pick(['Hansen', 'Lindqvist', 'Nielsen', 'Virtanen', 'Berg'])}`, email: `contact${i}@example.com`, phone1: `+47 ${20000000 + i}` },
      corporateId: org,
      vatRegistrationId: `${country}${org}`,
      currencyId: currency,
      creditTerms: pick([{ id: '14D', description: '14 days' }, { id: '30D', description: '30 days' }, { id: 'PREPAID', description: 'Prepayment' }]),
    };
  });
}

/** Creates demo data through the public API (so every write takes the same path as a client's). */
export async function seedCompany(options: SeedOptions): Promise<boolean> {
  const token = await signDevToken(options.keys.privateKeyPem, { companies: [options.companyId], scope: 'erp:read erp:write' });
  const headers = {
    authorization: `Bearer ${token}`,
    'ipp-company-id': options.companyId,
    'ipp-application-type': 'erp-seed',
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (options.onlyIfEmpty) {
    const existing = await seedFetch(`${options.baseUrl}/v1/customer?pageSize=1&pageNumber=1`, { headers });
    if (existing.ok && ((await existing.json()) as unknown[]).length > 0) return false;
  }
  const created: SeedCustomer[] = [];
  for (const customer of demoCustomers(options.customers ?? 60)) {
    const response = await seedFetch(`${options.baseUrl}/v1/customer`, { method: 'POST', headers, body: JSON.stringify(customer) });
    if (response.status !== 201) throw new Error(`Seeding a customer failed with ${response.status}: ${await response.text()}`);
    created.push((await response.json()) as SeedCustomer);
  }
  if (options.supplierInvoices !== 0) {
    await seedSupplierInvoices({ baseUrl: options.baseUrl, headers, invoices: options.supplierInvoices });
  }
  const { 'ipp-application-type': _v1Only, ...v3Headers } = headers;
  // Items (with base prices), then the price rules, before orders: order lines may only name items
  // that exist, and the demo lines sent without unitPrice take the rules' price.
  await seedInventory({ baseUrl: options.baseUrl, headers: v3Headers });
  await seedPrices({ baseUrl: options.baseUrl, headers: v3Headers, customers: created, products: demoProducts() });
  if (options.salesOrders !== 0) {
    await seedSalesOrders({ baseUrl: options.baseUrl, headers: v3Headers, customers: created, orders: options.salesOrders });
  }
  return true;
}
