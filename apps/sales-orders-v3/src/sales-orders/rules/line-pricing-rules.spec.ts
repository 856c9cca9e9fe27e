import { manualPriceProblems, newLinePricing, unpricedProblems, updatedLinePricing, updateRepricesLine } from './line-pricing-rules';

describe('line pricing flags (hasManualPrice / hasManualDiscount)', () => {
  it('a new line: manual when the flag says so, else when the value is sent', () => {
    expect(newLinePricing({})).toEqual({ hasManualPrice: false, hasManualDiscount: false });
    expect(newLinePricing({ unitPrice: 1, discountPercent: 0 })).toEqual({ hasManualPrice: true, hasManualDiscount: true });
    expect(newLinePricing({ unitPrice: 1, hasManualPrice: false, discountPercent: 5, hasManualDiscount: false })).toEqual({ hasManualPrice: false, hasManualDiscount: false });
    expect(newLinePricing({ hasManualDiscount: true })).toEqual({ hasManualPrice: false, hasManualDiscount: true });
  });

  it('an update: the flag sent, or manual when a value is sent, else unchanged', () => {
    expect(updatedLinePricing({ quantity: 2 })).toEqual({});
    expect(updatedLinePricing({ unitPrice: 2 })).toEqual({ hasManualPrice: true });
    expect(updatedLinePricing({ unitPrice: 2, hasManualPrice: false, discountPercent: 1 })).toEqual({ hasManualPrice: false, hasManualDiscount: true });
  });

  it('re-prices on item, quantity, price, discount or flag changes only', () => {
    expect(updateRepricesLine({})).toBe(false);
    for (const change of [{ quantity: 1 }, { inventoryId: 'A' }, { unitPrice: 1 }, { discountPercent: 1 }, { hasManualPrice: false }, { hasManualDiscount: true }]) {
      expect(updateRepricesLine(change)).toBe(true);
    }
  });

  it('hasManualPrice true needs a unitPrice', () => {
    expect(manualPriceProblems({ hasManualPrice: true }, 'lines[3]').map((p) => p.field)).toEqual(['lines[3].unitPrice']);
    expect(manualPriceProblems({ hasManualPrice: true, unitPrice: 0 }, 'lines[3]')).toEqual([]);
    expect(manualPriceProblems({ hasManualPrice: false }, 'lines[3]')).toEqual([]);
  });

  it('names an unpriced line at its field, with the item, currency and day', () => {
    const [p] = unpricedProblems([{ lineId: 4, inventoryId: 'X', currencyId: null, day: '2026-01-02' }], (id) => `orderLines[${id - 1}].unitPrice`);
    expect(p.field).toBe('orderLines[3].unitPrice');
    expect(p.message).toMatch(/^no price rule gives item X a price in the order currency \(none set\) on 2026-01-02/);
  });
});
