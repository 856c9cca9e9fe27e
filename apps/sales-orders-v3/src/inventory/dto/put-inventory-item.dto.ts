import { Type } from 'class-transformer';
import { CollectBodyProblems } from '@erp/errors';
import { DecimalMin, IsExactDecimal } from '@erp/decimals';
import { ArrayMaxSize, IsArray, IsNumber, IsObject, Matches, Min, registerDecorator, ValidateNested } from 'class-validator';
import { UNIT_PRICE_LIMITS } from '../../sales-orders/dto/order-parts.dto';
import { NestedArray, OptionalNotNull, OptionalNullable, Required, Text } from '../../sales-orders/dto/validators';

/** Warehouse, location and item codes: 1 to 30 characters without control characters (as an order line's inventoryId). */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
export const INVENTORY_CODE = /^[^\u0000-\u001f\u007f]{1,30}$/;
const CODE_MESSAGE = 'must be 1 to 30 characters without control characters';
const ATTRIBUTE_ID = /^[A-Za-z0-9_.-]{1,30}$/;
export const MAX_WAREHOUSES = 100;
export const MAX_LOCATIONS = 1000;
export const MAX_ATTRIBUTES = 100;
export const MAX_PRICES = 100;
export const CURRENCY_ID = /^[A-Z]{3}$/;
export const CURRENCY_MESSAGE = 'currencyId must be an ISO 4217 code such as NOK or EUR';

function Quantity(): PropertyDecorator {
  return (target, key) => {
    OptionalNotNull()(target, key);
    IsNumber({ allowNaN: false, allowInfinity: false })(target, key);
  };
}

/** `{ "<attribute id>": "<value>" }`: ids as in `attributeFilter`, string values up to 255 characters. */
function IsAttributeMap(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isAttributeMap',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= MAX_ATTRIBUTES &&
          // eslint-disable-next-line no-control-regex -- a value must be findable by attributeFilter, which refuses control characters
          Object.entries(value).every(([id, v]) => ATTRIBUTE_ID.test(id) && typeof v === 'string' && v.length <= 255 && !/[\u0000-\u001f\u007f]/.test(v)),
        defaultMessage: () =>
          `attributes must be an object of at most ${MAX_ATTRIBUTES} attribute ids (1 to 30 letters, digits, _ . or -) with string values of at most 255 characters without control characters`,
      },
    });
}

/** The figures of one warehouse or location; absent quantities are 0. */
class QuantitiesDto {
  @OptionalNullable() @Text(255) description?: string | null;
  @Quantity() quantityOnHand?: number;
  @Quantity() quantityAvailable?: number;
  @Quantity() quantityAvailableForShipment?: number;
  @Quantity() quantityNotAvailable?: number;
  @Quantity() quantityPurchaseOrders?: number;
}

export class LocationAvailabilityDto extends QuantitiesDto {
  @Required()
  @Matches(INVENTORY_CODE, { message: `locationId ${CODE_MESSAGE}` })
  locationId: string;
}

export class WarehouseAvailabilityDto extends QuantitiesDto {
  @Required()
  @Matches(INVENTORY_CODE, { message: `warehouseId ${CODE_MESSAGE}` })
  warehouseId: string;

  /** The cost of `quantityOnHand`; `estimatedUnitCost` is computed from it. */
  @OptionalNullable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  estimatedTotalCost?: number | null;

  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_LOCATIONS)
  @ValidateNested({ each: true })
  @Type(() => LocationAvailabilityDto)
  locations?: LocationAvailabilityDto[];
}

/** The item's base price in one currency: the last of the price rules (docs/api-conventions.md "Price rules"). */
export class ItemPriceDto {
  @Required()
  @Matches(CURRENCY_ID, { message: CURRENCY_MESSAGE })
  currencyId: string;

  @Required()
  @IsExactDecimal(UNIT_PRICE_LIMITS)
  @DecimalMin(0)
  unitPrice: number | string;
}

/**
 * PUT /api/v3/Inventory/{inventoryId} (an extension: the v3 document has no way to create items).
 * The whole item: fields left out are empty (null, `{}`, `[]`), as PUT replaces the item. Its shape
 * problems reach the use case (`@CollectBodyProblems`), so one 400 lists them with the path's and
 * the repeated codes'.
 */
@CollectBodyProblems()
export class PutInventoryItemDto {
  @OptionalNullable() @Text(255) description?: string | null;
  @OptionalNullable() @Text(10) baseUnit?: string | null;

  @OptionalNotNull()
  @IsObject()
  @IsAttributeMap()
  attributes?: Record<string, string>;

  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_WAREHOUSES)
  @ValidateNested({ each: true })
  @Type(() => WarehouseAvailabilityDto)
  availability?: WarehouseAvailabilityDto[];

  /** Base prices, one per currency (an extension; replaced whole like the rest of the item). */
  @NestedArray(() => ItemPriceDto, MAX_PRICES)
  prices?: ItemPriceDto[];
}
