import { B, FULL_ORDER, LINES, useSalesOrderViewsTestApp } from '../testing/sales-order-views-kit';

describe('sales-orders-v3 read views (.../commissions, /discounts, /tax, /rotrut, /shipment): what they show', () => {
  const { send, view, create, problemOf } = useSalesOrderViewsTestApp('views-computed');

  describe('computed from the order\'s parts and lines, exactly (line total 1427.84 after line discounts)', () => {
    let path: string;
    beforeAll(async () => {
      ({ path } = await create());
    });

    it('the order shows its salesperson and whether it has a ROT/RUT deduction; its lines their tax category and commissionable', async () => {
      const order = (await (await send('GET', `${path}?expand=lines`)).json()) as { salesPerson: unknown; isRotRutDeductable: boolean; lines: unknown[] };
      expect(order.salesPerson).toEqual({ id: 'SP01', description: null });
      expect(order.isRotRutDeductable).toBe(true);
      expect(order.lines).toEqual([
        expect.objectContaining({ lineId: 1, taxCategoryId: 'GOODS', commissionable: true }),
        expect.objectContaining({ lineId: 2, taxCategoryId: 'FOOD', commissionable: false }),
        expect.objectContaining({ lineId: 3, taxCategoryId: 'GOODS', commissionable: true }),
      ]);
    });

    it('commissions: the percent of the commissionable lines (1405.11 x 2.5 % = 35.12775 -> 35.13)', async () => {
      expect(await view(path, 'commissions')).toEqual([{ salesPersonId: 'SP01', percent: 2.5, commissionableAmount: 1405.11, amount: 35.13 }]);
    });

    it('discounts: each on the order total after line discounts, in the order given; a skipped one shown but not applied', async () => {
      const base = { type: 'Document', discountableAmount: 1427.84, discountableQuantity: 9.5, freeItemQuantity: null, isManual: true };
      expect(await view(path, 'discounts')).toEqual([
        { ...base, discountId: 'VOL5', discountSequenceId: '0001', discountPercent: 5, discountAmount: 71.39, manualOrderIndex: 1, skipDiscount: false },
        { ...base, discountId: 'FIX', discountSequenceId: null, discountPercent: null, discountAmount: 10, manualOrderIndex: 2, skipDiscount: false },
        { ...base, discountId: 'SKIP', discountSequenceId: null, discountPercent: 50, discountAmount: 713.92, manualOrderIndex: 3, skipDiscount: true },
      ]);
    });

    it('tax: per tax, the lines of its category less their share of the applied document discounts (81.39)', async () => {
      const flags = { includeInTaxable: true, exemptTax: false, isPendingTax: false, isReverseTax: false, isStatisticalTax: false };
      // GOODS 1405.11 - round(81.39 x 1405.11 / 1427.84) = 1325.02; FOOD 22.73 - 1.30 = 21.43: together 1427.84 - 81.39
      expect(await view(path, 'tax')).toEqual([
        { taxId: 'VAT25', taxType: 'VAT', taxRate: 25, taxableAmount: 1325.02, taxAmount: 331.26, ...flags },
        { taxId: 'VAT12', taxType: 'VAT', taxRate: 12, taxableAmount: 21.43, taxAmount: 2.57, ...flags },
      ]);
    });

    it('rotrut: distributed automatically, 30 % of the line with its VAT (1000.11 x 1.25 x 0.30 = 375.04) split equally, the odd cent to the first', async () => {
      expect(await view(path, 'rotrut')).toEqual({
        type: 'ROT',
        distributedAutomatically: true,
        appartment: null,
        estate: 'Villan 1:23',
        organizationNumber: null,
        distribution: [
          { lineId: 3, personalId: '19800101-1234', amount: 125.02, extra: null },
          { lineId: 3, personalId: '19820202-5678', amount: 125.01, extra: true },
          { lineId: 3, personalId: '198403039012', amount: 125.01, extra: null },
        ],
      });
    });

    it('shipment: in date order, dates in UTC, weight and volume 0 when not given', async () => {
      const none = { inventoryDocumentType: null, inventoryReferenceId: null };
      expect(await view(path, 'shipment')).toEqual([
        { id: 'SH1', date: '2026-01-15T09:00:00.000Z', type: 'Issue', quantity: 2.5, weight: 0, volume: 0.125, invoiceType: 'IN', invoiceId: '000042', ...none },
        { id: 'SH2', date: '2026-02-02T00:00:00.000Z', type: null, quantity: 1, weight: 2.5, volume: 0, invoiceType: null, invoiceId: null, ...none },
      ]);
    });
  });

  it('an order without view parts: empty lists, and a ROT/RUT object without a type', async () => {
    const { path } = await create({ type: 'SO', customer: { id: '10001' }, orderLines: [LINES[0]] });
    for (const name of ['commissions', 'discounts', 'tax', 'shipment']) expect(await view(path, name)).toEqual([]);
    expect(await view(path, 'rotrut')).toEqual({ type: null, distributedAutomatically: false, appartment: null, estate: null, organizationNumber: null, distribution: [] });
  });

  it('manual ROT/RUT amounts are shown as given', async () => {
    const { path } = await create({
      ...FULL_ORDER,
      rotRut: { type: 'RUT', organizationNumber: '556677-8899', appartment: '1102', distribution: [{ lineId: 3, personalId: '19800101-1234', amount: '99.95' }] },
    });
    expect(await view(path, 'rotrut')).toMatchObject({ type: 'RUT', distributedAutomatically: false, distribution: [{ lineId: 3, amount: 99.95 }] });
  });

  describe('tenancy and paths', () => {
    it.each(['commissions', 'discounts', 'tax', 'rotrut', 'shipment'])('%s: 404 for another company\'s order, the same as for an unknown one', async (name) => {
      const { path } = await create();
      const other = await send('GET', `${path}/${name}`, { company: B });
      const unknown = await send('GET', `/api/v3/SalesOrders/SO/999999/${name}`);
      const badType = await send('GET', `/api/v3/SalesOrders/XX/000001/${name}`);
      for (const response of [other, unknown, badType]) expect(response.status).toBe(404);
      const sameness = (p: { type?: string; title?: string; status: number }) => ({ type: p.type, title: p.title, status: p.status });
      const otherProblem = await problemOf(other);
      expect(sameness(otherProblem)).toEqual(sameness(await problemOf(unknown)));
      expect(JSON.stringify(otherProblem)).not.toMatch(/SP01|VOL5|VAT25|19800101|SH1/);
    });

    it('an unknown query parameter is a 400', async () => {
      const { path } = await create();
      expect((await send('GET', `${path}/tax?expand=lines`)).status).toBe(400);
    });
  });
});
