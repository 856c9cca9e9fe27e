import { DETAIL_CODES, type FieldProblem } from '@erp/errors';
import type { LineValuesDto } from '../dto/order-parts.dto';

/**
 * Which of a line's price and discount the client sets and which the price rules set (the v3
 * document's `hasManualPrice` / `hasManualDiscount`). Pure functions; the rules themselves run in
 * SQL (pricing/repository/price-rules.sql.ts) so an order of thousands of lines is priced in one statement.
 *
 * - A new line: manual price when `hasManualPrice` is true, or absent/null and `unitPrice` is sent;
 *   otherwise the rules set the price (a `unitPrice` sent with `hasManualPrice: false` is replaced).
 *   The same for the discount with `hasManualDiscount` and `discountPercent`.
 * - A line update: `hasManualPrice` sent sets the flag; a `unitPrice` sent without it makes the
 *   price manual; neither leaves the flag as it is. The same for the discount.
 */

export interface LinePricing {
  hasManualPrice: boolean;
  hasManualDiscount: boolean;
}

type PricingFields = Pick<LineValuesDto, 'unitPrice' | 'discountPercent' | 'hasManualPrice' | 'hasManualDiscount' | 'quantity'> & { inventoryId?: string };

export function newLinePricing(line: PricingFields): LinePricing {
  return {
    hasManualPrice: line.hasManualPrice ?? line.unitPrice !== undefined,
    hasManualDiscount: line.hasManualDiscount ?? line.discountPercent !== undefined,
  };
}

/** The flags a line update sets (absent: unchanged). */
export function updatedLinePricing(line: PricingFields): Partial<LinePricing> {
  const pricing: Partial<LinePricing> = {};
  const price = line.hasManualPrice ?? (line.unitPrice !== undefined ? true : undefined);
  const discount = line.hasManualDiscount ?? (line.discountPercent !== undefined ? true : undefined);
  if (price !== undefined) pricing.hasManualPrice = price;
  if (discount !== undefined) pricing.hasManualDiscount = discount;
  return pricing;
}

/**
 * Whether a line update may change what the rules give the line: its item, its quantity (quantity
 * breaks) or its flags. Other changes (a note) leave a rule-priced line's price as it is.
 */
export function updateRepricesLine(line: PricingFields): boolean {
  return [line.inventoryId, line.quantity, line.unitPrice, line.discountPercent, line.hasManualPrice, line.hasManualDiscount].some((v) => v !== undefined);
}

/** `hasManualPrice: true` keeps the price sent, so a new line must send one. */
export function manualPriceProblems(line: PricingFields, path: string): FieldProblem[] {
  if (line.hasManualPrice === true && line.unitPrice === undefined) {
    return [{ field: `${path}.unitPrice`, message: 'unitPrice is required when hasManualPrice is true', code: DETAIL_CODES.required }];
  }
  return [];
}

/** A line the rules could not price: no price list entry and no base price for its item in the order's currency. */
export interface UnpricedLine {
  lineId: number;
  inventoryId: string;
  currencyId: string | null;
  day: string;
}

export function unpricedMessage(line: UnpricedLine): string {
  return (
    `no price rule gives item ${line.inventoryId} a price in ${line.currencyId ?? 'the order currency (none set)'} on ${line.day}: ` +
    'send unitPrice, or give the item a base price (PUT /api/v3/Inventory/{inventoryId} prices) or a price list entry'
  );
}

/** The 400's problems for lines the rules could not price, each at the field `fieldOf(lineId)` names. */
export function unpricedProblems(lines: UnpricedLine[], fieldOf: (lineId: number) => string): FieldProblem[] {
  return lines.map((line) => ({ field: fieldOf(line.lineId), message: unpricedMessage(line), code: DETAIL_CODES.required }));
}
