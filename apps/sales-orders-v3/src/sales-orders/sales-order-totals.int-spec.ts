import fc from 'fast-check';
import { modelTotals, type ModelOrder } from '../testing/order-totals-model';
import { insertCustomerSnapshots, orderRows, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';
import { jsonOf, requester } from '../testing/requests';

/**
 * The order's totals as the v3 document defines them (docs/api-conventions.md "Totals"): a worked
 * example by hand, base-currency amounts from the rate in force on the order date, the 400 of a
 * missing rate, and a property test over generated orders against an independent decimal model
 * (testing/order-totals-model.ts): totals equal the sum of their parts to the cent, the read views
 * and the list agree with `totals`, base-currency amounts are the converted amounts rounded to cents.
 */
const A = '1000001';
let t: SalesOrdersTestApp;

type Totals = Record<string, number>;
interface Order {
  orderId: string;
  currencyId: string;
  totals: Totals;
  lines: Array<{ extendedPrice: number }>;
  freight?: Record<string, unknown>;
}

const send = requester(() => t, A);
const json = jsonOf;

const RATES = {
  baseCurrencyId: 'NOK',
  rates: [
    { currencyId: 'EUR', effectiveDate: '2026-01-01', rate: '11.5' },
    { currencyId: 'EUR', effectiveDate: '2026-03-01', rate: '11.75' },
  ],
};

/** The worked example of docs/api-conventions.md "Totals". */
const EXAMPLE = {
  type: 'SO',
  customer: { id: 'EUROCUST' },
  date: '2026-02-15',
  orderLines: [
    { inventoryId: 'ITEM1', quantity: 3, unitPrice: '19.99', taxCategoryId: 'STD' },
    { inventoryId: 'ITEM2', quantity: 2, unitPrice: '5.555', discountPercent: 10, taxCategoryId: 'ZERO' },
    { inventoryId: 'ITEM3', quantity: 1, unitPrice: 7 },
  ],
  discounts: [{ discountId: 'D10', discountPercent: 10 }],
  taxes: [
    { taxId: 'VAT25', taxCategoryId: 'STD', taxRate: 25 },
    { taxId: 'ZERO', taxCategoryId: 'ZERO', taxRate: 0, exemptTax: true },
    { taxId: 'STAT', taxCategoryId: 'STD', taxRate: 5, isStatisticalTax: true },
  ],
  freight: { cost: 10, premiumAmount: '2.50', taxCategoryId: 'STD' },
};

describe('sales-orders-v3 order totals', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('totals');
    await insertCustomerSnapshots(t, A, [{ id: 'EUROCUST', currencyId: 'EUR' }, { id: 'NOKCUST', currencyId: 'NOK' }, { id: 'NOCURRENCY', currencyId: null }]);
    await putInventoryItems(t, A, ['ITEM1', 'ITEM2', 'ITEM3']);
    await json(await send('PUT', '/api/v3/CurrencyRates', RATES), 201);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('the worked example: line, discount, tax, freight and order totals, and their base-currency amounts at the rate of the order date', async () => {
    const order = await json<Order>(await send('POST', '/api/v3/SalesOrders', EXAMPLE), 201);
    // lines 78.08 before line discounts, 76.97 after; document discount 10 % = 7.70; freight 12.50 in STD;
    // STD taxable 59.97 - 6.00 + 12.50 = 66.47 (VAT 16.62, the statistical tax not charged); ZERO 10.00 - 1.00 = 9.00 exempt
    expect(order.totals).toEqual({
      discountTotal: 8.81,
      discountTotalInBaseCurrency: 101.32,
      freightCost: 10,
      freightCostInBaseCurrency: 115,
      freightTotal: 12.5,
      freightTotalInBaseCurrency: 143.75,
      orderTotal: 98.39,
      orderTotalInBaseCurrency: 1131.49,
      taxExemptTotal: 9,
      taxExemptTotalInBaseCurrency: 103.5,
      taxTotal: 16.62,
      taxTotalInBaseCurrency: 191.13,
      taxableTotal: 66.47,
      taxableTotalInBaseCurrency: 764.41,
    });
    const path = `/api/v3/SalesOrders/SO/${order.orderId}`;
    const withFreight = await json<Order>(await send('GET', `${path}?expand=freight`), 200);
    expect(withFreight.freight).toEqual({
      amount: 12.5,
      amountInBaseCurrency: 143.75,
      cost: 10,
      costInBaseCurrency: 115,
      premiumAmount: 2.5,
      premiumAmountInBaseCurrency: 28.75,
      taxCategoryId: 'STD',
    });
    const tax = await json<Array<{ taxId: string; taxableAmount: number; taxAmount: number }>>(await send('GET', `${path}/tax`), 200);
    expect(tax.map((x) => [x.taxId, x.taxableAmount, x.taxAmount])).toEqual([
      ['VAT25', 66.47, 16.62],
      ['ZERO', 9, 0],
      ['STAT', 66.47, 3.32],
    ]);
    const list = await json<{ value: Array<{ orderId: string; orderTotal: number }> }>(await send('GET', '/api/v3/SalesOrders?customerId=EUROCUST'), 200);
    expect(list.value.find((o) => o.orderId === order.orderId)?.orderTotal).toBe(98.39);
  });

  it('a PATCH of the date takes the rate then in force; of freight, discounts or taxes recomputes the totals', async () => {
    const created = await send('POST', '/api/v3/SalesOrders', EXAMPLE);
    const { orderId } = await json<Order>(created, 201);
    const path = `/api/v3/SalesOrders/SO/${orderId}`;
    const moved = await send('PATCH', path, { date: '2026-03-05' }, created.headers.get('etag')!);
    // 98.39 x 11.75 = 1156.0825
    expect((await json<Order>(moved, 202)).totals).toMatchObject({ orderTotal: 98.39, orderTotalInBaseCurrency: 1156.08 });
    const noPremium = await send('PATCH', path, { freight: { premiumAmount: 0 } }, moved.headers.get('etag')!);
    // STD taxable 59.97 - 6.00 + 10 = 63.97, VAT 15.9925 -> 15.99; 76.97 - 7.70 + 10 + 15.99
    expect((await json<Order>(noPremium, 202)).totals).toMatchObject({ freightTotal: 10, taxableTotal: 63.97, taxTotal: 15.99, orderTotal: 95.26 });
    const noDiscount = await send('PATCH', path, { discounts: [], taxes: [] }, noPremium.headers.get('etag')!);
    expect((await json<Order>(noDiscount, 202)).totals).toMatchObject({ discountTotal: 1.11, taxTotal: 0, taxableTotal: 0, orderTotal: 86.97 });
  });

  it('an order in its base currency has rate 1; a needed rate that is missing is a 400 on currencyId and nothing is stored', async () => {
    const nok = await json<Order>(await send('POST', '/api/v3/SalesOrders', { ...EXAMPLE, customer: { id: 'NOKCUST' } }), 201);
    expect(nok.totals).toMatchObject({ orderTotal: 98.39, orderTotalInBaseCurrency: 98.39 });
    // An order without a currency (its customer has none) is in the company's currency: rate 1
    const none = await json<Order>(await send('POST', '/api/v3/SalesOrders', { ...EXAMPLE, customer: { id: 'NOCURRENCY' } }), 201);
    expect([none.currencyId, none.totals.orderTotalInBaseCurrency]).toEqual([null, 98.39]);
    const before = await t.sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A]);
    for (const body of [{ ...EXAMPLE, date: '2025-12-31' }, { ...EXAMPLE, currencyId: 'USD' }]) {
      const response = await send('POST', '/api/v3/SalesOrders', body);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(problem.errors)).toEqual(['currencyId']);
      expect(problem.errors.currencyId[0]).toMatch(/^no exchange rate from (EUR|USD) to the base currency NOK is in force on 2025-12-31|2026-02-15/);
    }
    expect((await t.sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A])).rows).toEqual(before.rows);
    // A PATCH into a currency without a rate changes nothing
    const stored = await orderRows(t.sql, A, 'SO', nok.orderId);
    const response = await send('PATCH', `/api/v3/SalesOrders/SO/${nok.orderId}`, { currencyId: 'USD' }, '*');
    expect(response.status).toBe(400);
    expect(await orderRows(t.sql, A, 'SO', nok.orderId)).toEqual(stored);
  });

  it('CurrencyRates: bad input is a 400 listing every problem; GET answers what is kept', async () => {
    const response = await send('PUT', '/api/v3/CurrencyRates', {
      baseCurrencyId: 'nok',
      rates: [
        { currencyId: 'EUR', effectiveDate: '2026-01-01', rate: 0 },
        { currencyId: 'EUR', effectiveDate: '2026-01-01', rate: 1 },
        { currencyId: 'USD', effectiveDate: '2026-13-01', rate: '1.123456789' },
      ],
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(problem.errors).sort()).toEqual(['baseCurrencyId', 'rates[0].rate', 'rates[1]', 'rates[2].effectiveDate', 'rates[2].rate'].sort());
    expect(await json(await send('GET', '/api/v3/CurrencyRates'), 200)).toMatchObject({ baseCurrencyId: 'NOK', rates: [{ currencyId: 'EUR', effectiveDate: '2026-01-01', rate: 11.5 }, { currencyId: 'EUR', effectiveDate: '2026-03-01', rate: 11.75 }] });
  });

  it('property: over generated orders, totals are the sum of their parts to the cent, the views and the list agree, base amounts are the converted ones', async () => {
    const decimal = (max: number, scale: number) => fc.integer({ min: 0, max: max * 10 ** scale }).map((n) => (n / 10 ** scale).toFixed(scale));
    const category = fc.constantFrom('STD', 'ZERO', null);
    const line = fc.record({
      quantity: fc.integer({ min: 1, max: 50_000 }).map((n) => (n / 100).toFixed(2)),
      unitPrice: decimal(2000, 3),
      discountPercent: decimal(100, 2),
      taxCategoryId: category,
    });
    const discount = fc.oneof(
      fc.record({ discountPercent: decimal(30, 2), skipDiscount: fc.boolean() }),
      fc.record({ discountAmount: decimal(500, 2), skipDiscount: fc.boolean() }),
    );
    const order = fc.record({
      lines: fc.array(line, { minLength: 1, maxLength: 8 }),
      discounts: fc.array(discount, { maxLength: 3 }),
      stdRate: fc.constantFrom('25', '12', '15.5'),
      statistical: fc.boolean(),
      freight: fc.record({ cost: decimal(300, 2), premiumAmount: decimal(50, 2), taxCategoryId: category }),
      euro: fc.boolean(),
      day: fc.integer({ min: 0, max: 180 }),
    });
    await fc.assert(
      fc.asyncProperty(order, async (g) => {
        const date = new Date(Date.UTC(2026, 0, 1) + g.day * 86_400_000).toISOString().slice(0, 10);
        const rate = g.euro ? (date < '2026-03-01' ? '11.5' : '11.75') : '1';
        const taxes = [
          { taxId: 'VAT', taxCategoryId: 'STD', taxRate: g.stdRate, exemptTax: false, isStatisticalTax: false },
          { taxId: 'EXEMPT', taxCategoryId: 'ZERO', taxRate: '0', exemptTax: true, isStatisticalTax: false },
          ...(g.statistical ? [{ taxId: 'STAT', taxCategoryId: 'STD', taxRate: '5', exemptTax: false, isStatisticalTax: true }] : []),
        ];
        const model: ModelOrder = { lines: g.lines, discounts: g.discounts, taxes, freight: g.freight, rate };
        const expected = modelTotals(model);
        const body = {
          type: 'SO',
          customer: { id: g.euro ? 'EUROCUST' : 'NOKCUST' },
          date,
          orderLines: g.lines.map((l, i) => ({ inventoryId: `ITEM${(i % 3) + 1}`, ...l, taxCategoryId: l.taxCategoryId ?? undefined })),
          discounts: g.discounts.map((d, i) => ({ discountId: `D${i}`, ...d })),
          taxes,
          freight: { ...g.freight, taxCategoryId: g.freight.taxCategoryId ?? undefined },
        };
        const created = await json<Order>(await send('POST', '/api/v3/SalesOrders', body), 201);
        expect(created.lines.map((l) => l.extendedPrice)).toEqual(expected.extended.map((d) => d.toNumber()));
        expect(created.totals).toEqual(expected.totals);
        const path = `/api/v3/SalesOrders/SO/${created.orderId}`;
        // The order read back, its views and its list row agree with the totals the write answered.
        expect((await json<Order>(await send('GET', path), 200)).totals).toEqual(created.totals);
        const discounts = await json<Array<{ discountAmount: number }>>(await send('GET', `${path}/discounts`), 200);
        expect(discounts.map((d) => d.discountAmount)).toEqual(expected.discountAmounts.map((d) => d.toNumber()));
        const tax = await json<Array<{ taxId: string; taxableAmount: number; taxAmount: number }>>(await send('GET', `${path}/tax`), 200);
        expect(tax).toEqual(expected.taxes.map((x) => expect.objectContaining({ taxId: x.taxId, taxableAmount: x.taxableAmount.toNumber(), taxAmount: x.taxAmount.toNumber() })));
        const charged = tax.filter((x) => x.taxId !== 'STAT').reduce((s, x) => s + Math.round(x.taxAmount * 100), 0);
        expect(Math.round(created.totals.taxTotal * 100)).toBe(charged);
        const list = await json<{ value: Array<{ orderTotal: number }> }>(await send('GET', `/api/v3/SalesOrders?filter=${created.orderId}`), 200);
        expect(list.value.map((o) => o.orderTotal)).toEqual([created.totals.orderTotal]);
      }),
      { numRuns: 40, seed: 20261127 },
    );
  }, 120_000);
});
