import Decimal from 'decimal.js';

/**
 * An independent model of the documented totals (docs/api-conventions.md "Totals"), in decimal.js,
 * for the property tests: what an order's totals and views must be, computed from its request.
 * Rounding: half away from zero to cents (decimal.js ROUND_HALF_UP rounds ties away from zero).
 */
export interface ModelLine {
  quantity: string;
  unitPrice: string;
  discountPercent: string;
  taxCategoryId: string | null;
}
export interface ModelDiscount {
  discountPercent?: string;
  discountAmount?: string;
  skipDiscount: boolean;
}
export interface ModelTax {
  taxId: string;
  taxCategoryId: string;
  taxRate: string;
  exemptTax: boolean;
  isStatisticalTax: boolean;
}
export interface ModelOrder {
  lines: ModelLine[];
  discounts: ModelDiscount[];
  taxes: ModelTax[];
  freight: { cost: string; premiumAmount: string; taxCategoryId: string | null };
  rate: string;
}

const cents = (d: Decimal.Value): Decimal => new Decimal(d).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const sum = (values: Decimal[]): Decimal => values.reduce((a, b) => a.plus(b), new Decimal(0));

export function extendedPrice(line: ModelLine): Decimal {
  return cents(new Decimal(line.quantity).times(line.unitPrice).times(new Decimal(1).minus(new Decimal(line.discountPercent).div(100))));
}

export function modelTotals(order: ModelOrder) {
  const extended = order.lines.map(extendedPrice);
  const lineTotal = sum(order.lines.map((l) => cents(new Decimal(l.quantity).times(l.unitPrice))));
  const net = sum(extended);
  const discountAmounts = order.discounts.map((d) => (d.discountAmount !== undefined ? new Decimal(d.discountAmount) : cents(net.times(d.discountPercent as string).div(100))));
  const applied = Decimal.min(net, sum(discountAmounts.filter((_, i) => !order.discounts[i].skipDiscount)));
  const freight = new Decimal(order.freight.cost).plus(order.freight.premiumAmount);
  const taxableOf = (category: string): Decimal => {
    const amount = sum(order.lines.flatMap((l, i) => (l.taxCategoryId === category ? [extended[i]] : [])));
    const share = net.gt(0) ? cents(applied.times(amount).div(net)) : new Decimal(0);
    return amount.minus(share).plus(order.freight.taxCategoryId === category ? freight : 0);
  };
  const taxes = order.taxes.map((t) => {
    const taxable = taxableOf(t.taxCategoryId);
    return { taxId: t.taxId, taxableAmount: taxable, taxAmount: t.exemptTax ? new Decimal(0) : cents(taxable.times(t.taxRate).div(100)), charged: !t.isStatisticalTax };
  });
  const categories = [...new Set(order.taxes.map((t) => t.taxCategoryId))];
  const ofCategory = (c: string) => order.taxes.filter((t) => t.taxCategoryId === c);
  const taxTotal = sum(taxes.filter((t) => t.charged).map((t) => t.taxAmount));
  const taxableTotal = sum(categories.filter((c) => ofCategory(c).some((t) => !t.isStatisticalTax && !t.exemptTax)).map(taxableOf));
  const taxExemptTotal = sum(categories.filter((c) => ofCategory(c).every((t) => t.exemptTax)).map(taxableOf));
  const totals: Record<string, Decimal> = {
    discountTotal: lineTotal.minus(net).plus(applied),
    freightCost: new Decimal(order.freight.cost),
    freightTotal: freight,
    orderTotal: net.minus(applied).plus(freight).plus(taxTotal),
    taxExemptTotal,
    taxTotal,
    taxableTotal,
  };
  const withBase: Record<string, number> = {};
  for (const [key, value] of Object.entries(totals)) {
    withBase[key] = value.toNumber();
    withBase[`${key}InBaseCurrency`] = cents(value.times(order.rate)).toNumber();
  }
  return { lineTotal, extended, discountAmounts, taxes, totals: withBase };
}

/**
 * The full `totals` of an order without document discounts, taxes or freight in its base currency
 * (rate 1): the line discounts and the net of its lines, everything else 0.
 */
export function plainTotals(figures: { discountTotal: number; orderTotal: number }): Record<string, number> {
  const totals: Record<string, number> = { ...figures, freightCost: 0, freightTotal: 0, taxExemptTotal: 0, taxTotal: 0, taxableTotal: 0 };
  return Object.fromEntries(Object.entries(totals).flatMap(([key, value]) => [[key, value], [`${key}InBaseCurrency`, value]]));
}
