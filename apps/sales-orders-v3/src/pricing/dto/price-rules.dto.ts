import { CollectBodyProblems } from '@erp/errors';
import { DecimalMax, DecimalMin, IsExactDecimal } from '@erp/decimals';
import { ArrayMaxSize, IsArray, Matches, registerDecorator } from 'class-validator';
import { CURRENCY_ID, CURRENCY_MESSAGE, INVENTORY_CODE } from '../../inventory/dto/put-inventory-item.dto';
import { CUSTOMER_ID_PATTERN, DISCOUNT_LIMITS, QUANTITY_LIMITS, UNIT_PRICE_LIMITS } from '../../sales-orders/dto/order-parts.dto';
import { NestedArray, OptionalNotNull, OptionalNullable, Required, Text } from '../../sales-orders/dto/validators';

/**
 * The bodies of the price rule extensions (`PUT /api/v3/PriceClasses/{id}`, `PUT /api/v3/PriceLists/{id}`);
 * each PUT replaces the whole record. Rules across fields (one target per entry, dates in order,
 * references that exist) are the use cases'.
 */

export const PRICE_CLASS_ID = /^[A-Za-z0-9_-]{1,10}$/;
export const PRICE_CLASS_MESSAGE = 'must be 1 to 10 letters, digits, "_" or "-"';
export const PRICE_LIST_ID = /^[A-Za-z0-9_.-]{1,30}$/;
export const PRICE_LIST_MESSAGE = 'must be 1 to 30 letters, digits, "_", "." or "-"';
export const MAX_PRICE_CLASS_CUSTOMERS = 10_000;
export const MAX_PRICE_LIST_ENTRIES = 10_000;
const CUSTOMER_MESSAGE = 'must be a customer number: 1 to 30 letters, digits, ".", "_" or "-"';

/** `YYYY-MM-DD` naming a day that exists: 2026-02-30 and 2026-13-01 do not (the latter is an Invalid Date, whose toISOString throws). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

/** A calendar date `YYYY-MM-DD` that exists (see isCalendarDate). */
export function IsCalendarDate(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isCalendarDate(value),
        defaultMessage: () => `${String(key)} must be a calendar date YYYY-MM-DD`,
      },
    });
}

@CollectBodyProblems()
export class PutPriceClassDto {
  @OptionalNullable() @Text(255) description?: string | null;

  /** The customers in the class (customer numbers); a customer is in at most one class. */
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_PRICE_CLASS_CUSTOMERS)
  @Matches(CUSTOMER_ID_PATTERN, { each: true, message: `each customer ${CUSTOMER_MESSAGE}` })
  customers?: string[];
}

/** One price of a price list: an item for one customer, one price class or (neither) everyone. */
export class PriceListEntryDto {
  @Required()
  @Matches(INVENTORY_CODE, { message: 'inventoryId must be 1 to 30 characters without control characters' })
  inventoryId: string;

  @OptionalNullable()
  @Matches(CUSTOMER_ID_PATTERN, { message: `customerId ${CUSTOMER_MESSAGE}` })
  customerId?: string | null;

  @OptionalNullable()
  @Matches(PRICE_CLASS_ID, { message: `priceClassId ${PRICE_CLASS_MESSAGE}` })
  priceClassId?: string | null;

  /** The quantity break: the entry applies to lines of at least this quantity (default 0). */
  @OptionalNullable()
  @IsExactDecimal(QUANTITY_LIMITS)
  @DecimalMin(0)
  minQuantity?: number | string | null;

  @Required()
  @IsExactDecimal(UNIT_PRICE_LIMITS)
  @DecimalMin(0)
  unitPrice: number | string;

  /** The line discount the entry gives (default none: 0). */
  @OptionalNullable()
  @IsExactDecimal(DISCOUNT_LIMITS)
  @DecimalMin(0)
  @DecimalMax(100)
  discountPercent?: number | string | null;

  /** First and last day (inclusive, UTC) the entry is in force; open-ended when null. */
  @OptionalNullable() @IsCalendarDate() effectiveFrom?: string | null;
  @OptionalNullable() @IsCalendarDate() effectiveTo?: string | null;
}

@CollectBodyProblems()
export class PutPriceListDto {
  @OptionalNullable() @Text(255) description?: string | null;

  @Required()
  @Matches(CURRENCY_ID, { message: CURRENCY_MESSAGE })
  currencyId: string;

  @NestedArray(() => PriceListEntryDto, MAX_PRICE_LIST_ENTRIES)
  entries?: PriceListEntryDto[];
}
