import { DECIMAL_INPUT, type Schemas } from '@erp/openapi';
import { decimal, text } from './sales-orders.openapi-helpers';

/** Each amount and its base-currency amount (`<key>InBaseCurrency`), as the v3 document pairs them. */
function withBaseCurrency(keys: string[]): Record<string, Schemas[string]> {
  return Object.fromEntries(
    keys.flatMap((k) => [
      [k, decimal()],
      [`${k}InBaseCurrency`, decimal("At the order's rate to the company's base currency, rounded to cents")],
    ]),
  );
}

/** The order's totals and freight (docs/api-conventions.md "Totals"). */
export const TOTALS_SCHEMAS: Schemas = {
  SalesOrderTotals: {
    type: 'object',
    additionalProperties: false,
    description:
      "The v3 document's SalesOrderTotalsDto: orderTotal = lines before discounts - discountTotal + freightTotal + taxTotal; the same SQL as the discounts and tax views",
    properties: withBaseCurrency([
      'discountTotal',
      'freightCost',
      'freightTotal',
      'orderTotal',
      'taxExemptTotal',
      'taxTotal',
      'taxableTotal',
    ]),
  },
  SalesOrderFreight: {
    type: 'object',
    additionalProperties: false,
    description:
      "expand=freight: the document's SalesOrderFreightDto (amount = cost + premiumAmount: no ship-via terms are kept)",
    properties: { ...withBaseCurrency(['amount', 'cost', 'premiumAmount']), taxCategoryId: text() },
  },
  SalesOrderFreightInput: {
    type: ['object', 'null'],
    additionalProperties: false,
    description:
      'The document\'s freight on POST and PATCH: cost + premiumAmount is the freight total, taxed by the taxes of taxCategoryId ("" removes it); null fields are unchanged',
    properties: {
      cost: { anyOf: [DECIMAL_INPUT, { type: 'null' }] },
      premiumAmount: { anyOf: [DECIMAL_INPUT, { type: 'null' }] },
      taxCategoryId: text(10),
    },
  },
};
