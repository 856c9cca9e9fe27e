import { type SeedCustomer, sendNamingCustomers } from './seed-requests';

/**
 * The demo company's prices, so that every pricing feature shows on `npm start`'s own data
 * (docs/api-conventions.md "Price rules"): base prices per currency on every item, NOK as the base
 * currency with exchange rates, a customer price class and a price list with quantity breaks.
 * A line sent without `unitPrice` then gets the rule's price, as the v3 document invites.
 */

/** What 1 unit of each currency is in NOK, the demo company's base currency, from 2020 and from March 2026. */
export const DEMO_RATES: Array<{ currencyId: string; effectiveDate: string; rate: string }> = [
  { currencyId: 'EUR', effectiveDate: '2020-01-01', rate: '11.50' },
  { currencyId: 'EUR', effectiveDate: '2026-03-01', rate: '11.75' },
  { currencyId: 'SEK', effectiveDate: '2020-01-01', rate: '0.98' },
  { currencyId: 'DKK', effectiveDate: '2020-01-01', rate: '1.54' },
];

export const DEMO_PRICE_CLASS = 'TRADE';
export const DEMO_PRICE_LIST = 'NOK-2026';

/** `nok` x `factor`, to 4 decimals, as an exact decimal string. */
const price = (nok: number, factor: number): string => (Math.round(nok * factor * 10_000) / 10_000).toFixed(4);

/** An item's base prices: its NOK price, and the same converted at the 2020 rates into the customers' other currencies. */
export function demoBasePrices(nok: number): Array<{ currencyId: string; unitPrice: string }> {
  return [{ currencyId: 'NOK', unitPrice: price(nok, 1) }, ...DEMO_RATES.filter((r) => r.effectiveDate === '2020-01-01').map((r) => ({ currencyId: r.currencyId, unitPrice: price(nok, 1 / Number(r.rate)) }))];
}

/**
 * The NOK price list: for every item, everyone pays 10 % less from 100 units and 20 % less plus a 2 %
 * line discount from 1000 (quantity breaks); the price class pays 15 % less with 5 % on the first two
 * items from 2026; one customer has a contract price on the first item.
 */
export function demoPriceList(products: Array<{ inventoryId: string; nok: number }>, contractCustomer: string | undefined): Record<string, unknown> {
  const [first, second] = products;
  return {
    description: 'Demo price list 2026',
    currencyId: 'NOK',
    entries: [
      ...products.flatMap((p) => [
        { inventoryId: p.inventoryId, minQuantity: '100', unitPrice: price(p.nok, 0.9) },
        { inventoryId: p.inventoryId, minQuantity: '1000', unitPrice: price(p.nok, 0.8), discountPercent: '2' },
      ]),
      ...[first, second].map((p) => ({ inventoryId: p.inventoryId, priceClassId: DEMO_PRICE_CLASS, unitPrice: price(p.nok, 0.85), discountPercent: '5', effectiveFrom: '2026-01-01' })),
      ...(contractCustomer ? [{ inventoryId: first.inventoryId, customerId: contractCustomer, unitPrice: price(first.nok, 0.7), discountPercent: '10' }] : []),
    ],
  };
}

/** Every third active customer, from the first: the members of the demo price class (at most 20). */
export function demoPriceClassMembers(customers: SeedCustomer[]): string[] {
  return activeOf(customers).filter((_, i) => i % 3 === 0).slice(0, 20).map((c) => c.number);
}

/** The second active customer, who is in no class: the one with a contract price. */
export function demoContractCustomer(customers: SeedCustomer[]): string | undefined {
  return activeOf(customers)[1]?.number;
}

const activeOf = (customers: SeedCustomer[]): SeedCustomer[] => customers.filter((c) => c.status === 'Active');

async function put(baseUrl: string, headers: Record<string, string>, path: string, body: unknown): Promise<void> {
  const response = await sendNamingCustomers('PUT', `${baseUrl}${path}`, headers, body);
  if (response.status !== 201 && response.status !== 200) throw new Error(`Seeding ${path} failed with ${response.status}: ${await response.text()}`);
}

/**
 * Sets the company's currency rates, price class and price list through the public API. The class
 * and the list name the customers just created (the sales-order service asks customers-v1 about
 * any its events have not brought yet). Runs after the items (the list names them) and before the orders.
 */
export async function seedPrices(options: {
  baseUrl: string;
  headers: Record<string, string>;
  customers: SeedCustomer[];
  products: Array<{ inventoryId: string; nok: number }>;
}): Promise<void> {
  const { baseUrl, headers } = options;
  await put(baseUrl, headers, '/api/v3/CurrencyRates', { baseCurrencyId: 'NOK', rates: DEMO_RATES });
  await put(baseUrl, headers, `/api/v3/PriceClasses/${DEMO_PRICE_CLASS}`, { description: 'Trade customers', customers: demoPriceClassMembers(options.customers) });
  await put(baseUrl, headers, `/api/v3/PriceLists/${DEMO_PRICE_LIST}`, demoPriceList(options.products, demoContractCustomer(options.customers)));
}
