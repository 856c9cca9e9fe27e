import { IsBoolean, IsInt, IsString, Matches, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** An exact decimal as text (`"98.39"`, `"0"`): events carry money as strings, never through a float. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const DECIMAL_MESSAGE = 'must be a decimal string such as "12.5"';

function Decimal(description: string): PropertyDecorator {
  return (target, key) => {
    JSONSchema({ description, type: 'string', pattern: DECIMAL.source })(target, key as string);
    Matches(DECIMAL, { message: `${String(key)} ${DECIMAL_MESSAGE}` })(target, key);
  };
}

/** The order's totals after the change (the API's `totals`, as decimal strings). */
export class SalesOrderEventTotals {
  @Decimal('Line and document discounts.') discountTotal: string;
  @Decimal('Freight cost plus premium.') freightTotal: string;
  @Decimal('Charged taxes.') taxTotal: string;
  @Decimal('What the customer pays: lines - discounts + freight + taxes.') orderTotal: string;
  @Decimal("orderTotal in the company's base currency, at the order's rate.") orderTotalInBaseCurrency: string;
}

/** One order line after the change, as priced. */
export class SalesOrderEventLine {
  @IsInt() @Min(1) lineId: number;
  @IsString() inventoryId: string;
  @Decimal('Quantity.') quantity: string;
  @Decimal('Unit price, from the price rules unless hasManualPrice.') unitPrice: string;
  @Decimal('Line discount percent.') discountPercent: string;
  @Decimal('quantity x unitPrice less the discount, rounded to cents.') extendedPrice: string;
  @IsBoolean() hasManualPrice: boolean;
  @IsBoolean() hasManualDiscount: boolean;
}
