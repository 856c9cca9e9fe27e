import { Type } from 'class-transformer';
import { IsBoolean, IsEmail, IsInt, IsObject, Matches, Max, Min, ValidateNested } from 'class-validator';
import { DecimalMax, DecimalMin, IsExactDecimal } from '@erp/decimals';
import { IsV3DateTime, OptionalNotNull, OptionalNullIsAbsent, OptionalNullable, Required, Text } from './validators';
import { AMOUNT_LIMITS, OrderViewFieldsDto } from './order-views.dto';
import { declareNotSupported } from './published-fields';

/**
 * Parts shared by the create and patch bodies. Field names follow the published v3 API; each field
 * is optional unless marked Required. Inside billing/shipping addresses and contacts `null` clears a
 * field (documented in docs/api-conventions.md); on the order header it means "unchanged". The document's properties
 * this service does not keep are declared with `declareNotSupported` (accepted only as null).
 */

/** An object part of a body: optional, null read as absent, validated as `type`. */
export function Part(type: () => new () => object): PropertyDecorator {
  return (target, key) => {
    OptionalNullIsAbsent()(target, key);
    IsObject()(target, key);
    ValidateNested()(target, key);
    Type(type)(target, key);
  };
}

/** An address as sent and as returned (the same shape both ways, so a read value can be sent back). */
export class AddressDto {
  @OptionalNullable() @Text(50) line1?: string | null;
  @OptionalNullable() @Text(50) line2?: string | null;
  @OptionalNullable() @Text(50) line3?: string | null;
  @OptionalNullable() @Text(20) postalCode?: string | null;
  @OptionalNullable() @Text(50) city?: string | null;

  @OptionalNullable()
  @Matches(/^[A-Z]{2}$/, { message: 'countryId must be an ISO 3166-1 alpha-2 code such as NO or SE' })
  countryId?: string | null;

  @OptionalNullable() @Text(50) stateId?: string | null;
}

export class ContactDto {
  @OptionalNullable() @Text(255) name?: string | null;
  @OptionalNullable() @Text(255) attention?: string | null;
  @OptionalNullable() @Text(255) @IsEmail() email?: string | null;
  @OptionalNullable() @Text(50) phone1?: string | null;
}

/** The patch document's address and contact also carry `overridesDefault`, which is not kept. */
export class PatchAddressDto extends AddressDto {}
export class PatchContactDto extends ContactDto {}
declareNotSupported(PatchAddressDto, ['overridesDefault']);
declareNotSupported(PatchContactDto, ['overridesDefault']);

/** `billing` (and the base of `shipping`) of a new order. */
export class AddressAndContactDto {
  @Part(() => AddressDto) address?: AddressDto;
  @Part(() => ContactDto) contact?: ContactDto;
}

/** `billing` and `shipping` of a PATCH: only the fields sent change (per address and contact). */
export class PatchAddressAndContactDto {
  @Part(() => PatchAddressDto) address?: PatchAddressDto;
  @Part(() => PatchContactDto) contact?: PatchContactDto;
}

/** The document's shipping settings besides address and contact (the same on create and patch). */
export const SHIPPING_NOT_SUPPORTED = [
  'fobPointId',
  'insurance',
  'intrastatTransactionTypeId',
  'preferredWarehouseId',
  'priority',
  'residentialDelivery',
  'rule',
  'saturdayDelivery',
  'scheduledDate',
  'shipSeparately',
  'shipViaId',
  'termsId',
  'zoneId',
] as const;

export class ShippingDto extends AddressAndContactDto {}
export class PatchShippingDto extends PatchAddressAndContactDto {}
declareNotSupported(ShippingDto, SHIPPING_NOT_SUPPORTED);
declareNotSupported(PatchShippingDto, SHIPPING_NOT_SUPPORTED);

export class CodeDescriptionDto {
  @Required()
  @Text(30, { nonEmpty: true })
  id: string;

  @OptionalNullable() @Text(100) description?: string | null;
}

/** `paymentSettings { terms, method }`: each replaced whole when sent, cleared by null. */
export class PaymentSettingsDto {
  @OptionalNullable()
  @IsObject()
  @ValidateNested()
  @Type(() => CodeDescriptionDto)
  terms?: CodeDescriptionDto | null;

  @OptionalNullable()
  @IsObject()
  @ValidateNested()
  @Type(() => CodeDescriptionDto)
  method?: CodeDescriptionDto | null;

  /** The document's name for the payment method: `method` with its id only; "" removes it; null is "not set" / "unchanged". */
  @OptionalNullIsAbsent() @Text(30) paymentMethodId?: string;
}
declareNotSupported(PaymentSettingsDto, ['cashAccountId', 'paymentReference']);

export const CUSTOMER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$/;
const CUSTOMER_ID_MESSAGE = 'customer.id must be a customer number: 1 to 30 letters, digits, ".", "_" or "-"';

/** The customer of a new order; `id` is the customer number. */
export class CreateCustomerReferenceDto {
  @Required()
  @Matches(CUSTOMER_ID_PATTERN, { message: CUSTOMER_ID_MESSAGE })
  id: string;

  @OptionalNullable() @Text(40) order?: string | null;
  @OptionalNullable() @Text(40) refNo?: string | null;
  /** The document's name for the order's payment terms: `paymentSettings.terms` with its id only ("" removes them). */
  @OptionalNullIsAbsent() @Text(30) termsId?: string;
}
declareNotSupported(CreateCustomerReferenceDto, ['contactId', 'gln', 'locationId']);

export class PatchCustomerReferenceDto {
  @OptionalNullIsAbsent()
  @Matches(CUSTOMER_ID_PATTERN, { message: CUSTOMER_ID_MESSAGE })
  id?: string;

  @OptionalNullIsAbsent() @Text(40) order?: string;
  @OptionalNullIsAbsent() @Text(40) refNo?: string;
  @OptionalNullIsAbsent() @Text(30) termsId?: string;
}
declareNotSupported(PatchCustomerReferenceDto, ['contactId', 'locationId']);

/** Decimal limits of the line fields (the database columns are numeric(18,6), numeric(7,4)). */
export const QUANTITY_LIMITS = { maxIntegerDigits: 12, maxScale: 6 };
export const UNIT_PRICE_LIMITS = { maxIntegerDigits: 12, maxScale: 6 };
export const DISCOUNT_LIMITS = { maxIntegerDigits: 3, maxScale: 4 };
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const INVENTORY_ID = /^[^\u0000-\u001f\u007f]{1,30}$/;

/**
 * The fields of one order line except its item: what the line operation PATCH `.../lines` may
 * change (the v3 document's PatchSalesOrderLineDto has no inventoryId).
 */
export class LineValuesDto {
  @OptionalNotNull()
  @IsExactDecimal(QUANTITY_LIMITS)
  @DecimalMin(0, { exclusive: true })
  quantity?: number | string;

  @OptionalNotNull()
  @IsExactDecimal(UNIT_PRICE_LIMITS)
  @DecimalMin(0)
  unitPrice?: number | string;

  @OptionalNotNull()
  @IsExactDecimal(DISCOUNT_LIMITS)
  @DecimalMin(0)
  @DecimalMax(100)
  discountPercent?: number | string;

  @OptionalNullable() @Text(256) description?: string | null;
  @OptionalNullable() @Text(6) unitOfMeasure?: string | null;
  @OptionalNullable() @Text(30) warehouseId?: string | null;
  @OptionalNullable() @IsV3DateTime() requestDate?: string | null;
  @OptionalNullable() @Text(2048) note?: string | null;
  /** The tax category whose taxes (the order's `taxes`) apply to the line; null clears it. */
  @OptionalNullable() @Text(10) taxCategoryId?: string | null;
  /** Whether the line earns the salesperson commission (default true); null is "not set" / "unchanged". */
  @OptionalNullIsAbsent() @IsBoolean() commissionable?: boolean;

  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(2_000_000_000)
  sortOrder?: number;

  /**
   * The document's `hasManualPrice`: true keeps `unitPrice` as sent, false lets the price rules set it
   * (a sent price is replaced). Null or absent: manual when `unitPrice` is sent (rules/line-pricing-rules.ts).
   */
  @OptionalNullIsAbsent() @IsBoolean() hasManualPrice?: boolean;

  /** The document's `hasManualDiscount`: the same for `discountPercent`. */
  @OptionalNullIsAbsent() @IsBoolean() hasManualDiscount?: boolean;
}

/**
 * The fields of one order line, every one optional here: which are required depends on where the
 * line is (a new order's line, or a PATCH insert/update/delete) and is checked by the use case.
 */
export class LineFieldsDto extends LineValuesDto {
  @OptionalNotNull()
  @Matches(INVENTORY_ID, { message: 'inventoryId must be 1 to 30 characters without control characters' })
  inventoryId?: string;
}

/**
 * The document's `freight` (NewSalesOrderFreightDto / PatchSalesOrderFreightDto): the freight cost and
 * premium the order charges, and the tax category whose taxes apply to them (no ship-via terms here:
 * the freight total is cost + premium). Null is "not set" / "unchanged"; `taxCategoryId` "" removes it.
 */
export class FreightDto {
  @OptionalNullIsAbsent() @IsExactDecimal(AMOUNT_LIMITS) @DecimalMin(0) cost?: number | string;
  @OptionalNullIsAbsent() @IsExactDecimal(AMOUNT_LIMITS) @DecimalMin(0) premiumAmount?: number | string;
  @OptionalNullIsAbsent() @Text(10) taxCategoryId?: string;
}

/**
 * The header fields a PATCH may change (create adds `type` and requires `customer`; `billing` and
 * `shipping` differ between the two documents' shapes, so each body declares its own). Null is
 * "not set" / "unchanged", never "clear": generated clients send null for every field the caller
 * did not set, and a PATCH of one field must not wipe the others.
 */
export class HeaderFieldsDto extends OrderViewFieldsDto {
  @OptionalNullIsAbsent() @IsV3DateTime() requestOn?: string;
  @OptionalNullIsAbsent() @IsV3DateTime() cancelBy?: string;
  @OptionalNullIsAbsent() @Text(255) description?: string;
  @OptionalNullIsAbsent() @Text(2048) note?: string;

  @OptionalNullIsAbsent()
  @Matches(/^[A-Z]{3}$/, { message: 'currencyId must be an ISO 4217 code such as NOK or EUR' })
  currencyId?: string;

  @Part(() => PaymentSettingsDto) paymentSettings?: PaymentSettingsDto;
  @Part(() => FreightDto) freight?: FreightDto;
}

/** Header properties of both the create and the patch document that this service does not keep. */
declareNotSupported(HeaderFieldsDto, [
  'branchId',
  'financialInformation',
  'originalOrderId',
  'originalOrderType',
  'ownerId',
  'print',
  'projectId',
  'taxZoneId',
  'useReplacementCostForMarginAndProfit',
]);

/**
 * The document's line properties (new lines and line patches alike) that this service does not
 * keep; `operation` is the line's direction and has its own message (sales-order-lines.dto.ts).
 */
export const LINE_NOT_SUPPORTED = [
  'branchId',
  'discountAmount',
  'discountCode',
  'externalLink',
  'overshipThreshold',
  'projectTaskId',
  'purchaseOrderSource',
  'reasonCode',
  'salesAccountId',
  'salesPersonId',
  'shipDate',
  'shippingRule',
  'subaccount',
  'supplierId',
  'supplierPrice',
  'undershipThreshold',
  'unitCost',
  'warehouseLocationId',
] as const;
