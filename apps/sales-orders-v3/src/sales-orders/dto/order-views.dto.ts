import { Type } from 'class-transformer';
import { PG_INTEGER_MAX } from '@erp/database';
import { DecimalMax, DecimalMin, IsExactDecimal } from '@erp/decimals';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, Matches, Max, Min, ValidateNested } from 'class-validator';
import { IsV3DateTime, OptionalNotNull, OptionalNullIsAbsent, OptionalNullable, Required, Text } from './validators';

/**
 * The order-level parts behind the read views (`.../discounts`, `.../tax`, `.../rotrut`,
 * `.../shipment`). The published document's write schemas have no property for them, so they are
 * this service's additive extension of the create and PATCH bodies (docs/api-conventions.md): each
 * is replaced whole when sent; an empty array (or `rotRut: null`) removes it. The amounts the views
 * show are computed from these and the lines when read.
 */

/** Decimal limits: amounts as the header's money columns take them, percents and rates as numeric(7,4). */
export const AMOUNT_LIMITS = { maxIntegerDigits: 16, maxScale: 2 };
export const PERCENT_LIMITS = { maxIntegerDigits: 3, maxScale: 4 };
export const SHIPPED_LIMITS = { maxIntegerDigits: 12, maxScale: 6 };

/** At most this many entries per part: an order has a handful of discounts, taxes and shipments. */
export const MAX_VIEW_ENTRIES = 100;

export const TAX_TYPES = ['Sales', 'Use', 'VAT', 'Withholding'] as const;
export const ROT_RUT_TYPES = ['ROT', 'RUT'] as const;

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CODE = /^[^\u0000-\u001f\u007f\s][^\u0000-\u001f\u007f]*$/;
/** A Swedish personal identity number: YYYYMMDD-NNNN, YYMMDD-NNNN (or +), with or without the separator. */
export const PERSONAL_ID = /^(\d{2})?\d{6}[-+]?\d{4}$/;
/** A Swedish organisation number: NNNNNN-NNNN, with or without the hyphen. */
export const ORGANIZATION_NUMBER = /^\d{6}-?\d{4}$/;

/** An array part of ours: optional, null refused (send [] to remove every entry). */
function Entries(type: () => new () => object): PropertyDecorator {
  return (target, key) => {
    OptionalNotNull()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(MAX_VIEW_ENTRIES)(target, key);
    ValidateNested({ each: true })(target, key);
    Type(type)(target, key);
  };
}

function Code(max: number): PropertyDecorator {
  return (target, key) => {
    Text(max, { nonEmpty: true })(target, key);
    Matches(CODE, { message: `${String(key)} must not start with a blank or hold control characters` })(target, key);
  };
}

/** A document discount: a percent of the order's line total, or a fixed amount (exactly one of them). */
export class OrderDiscountDto {
  @Required() @Code(10) discountId: string;
  @OptionalNullable() @Text(10) discountSequenceId?: string | null;

  @OptionalNullable()
  @IsExactDecimal(PERCENT_LIMITS)
  @DecimalMin(0)
  @DecimalMax(100)
  discountPercent?: number | string | null;

  @OptionalNullable()
  @IsExactDecimal(AMOUNT_LIMITS)
  @DecimalMin(0)
  discountAmount?: number | string | null;

  /** Kept on the order but not applied (the published document's `skipDiscount`). */
  @OptionalNullIsAbsent() @IsBoolean() skipDiscount?: boolean;
}

/** A tax of the order: `taxRate` percent of the lines whose `taxCategoryId` is this entry's. */
export class OrderTaxDto {
  @Required() @Code(30) taxId: string;
  @Required() @Code(10) taxCategoryId: string;

  @Required()
  @IsExactDecimal(PERCENT_LIMITS)
  @DecimalMin(0)
  @DecimalMax(100)
  taxRate: number | string;

  @OptionalNullIsAbsent()
  @IsIn(TAX_TYPES, { message: `taxType must be one of ${TAX_TYPES.join(', ')}` })
  taxType?: (typeof TAX_TYPES)[number];

  @OptionalNullIsAbsent() @IsBoolean() includeInTaxable?: boolean;
  @OptionalNullIsAbsent() @IsBoolean() exemptTax?: boolean;
  @OptionalNullIsAbsent() @IsBoolean() isPendingTax?: boolean;
  @OptionalNullIsAbsent() @IsBoolean() isReverseTax?: boolean;
  @OptionalNullIsAbsent() @IsBoolean() isStatisticalTax?: boolean;
}

/** One person's share of the ROT/RUT deduction on one line. */
export class RotRutDistributionDto {
  @Required()
  @IsInt()
  @Min(1)
  @Max(PG_INTEGER_MAX)
  lineId: number;

  @Required()
  @Matches(PERSONAL_ID, { message: 'personalId must be a Swedish personal identity number such as 19800101-1234' })
  personalId: string;

  /** Required unless the deduction is distributed automatically (then computed, and refused here). */
  @OptionalNullIsAbsent()
  @IsExactDecimal(AMOUNT_LIMITS)
  @DecimalMin(0)
  amount?: number | string;

  @OptionalNullable() @IsBoolean() extra?: boolean | null;
}

/** The Swedish ROT/RUT tax deduction of the order. */
export class RotRutDto {
  @Required()
  @IsIn(ROT_RUT_TYPES, { message: `type must be one of ${ROT_RUT_TYPES.join(', ')}` })
  type: (typeof ROT_RUT_TYPES)[number];

  /** true: each line's deduction is computed and split equally between its persons. */
  @OptionalNullIsAbsent() @IsBoolean() distributedAutomatically?: boolean;

  @OptionalNullable() @Text(50) appartment?: string | null;
  @OptionalNullable() @Text(50) estate?: string | null;

  @OptionalNullable()
  @Matches(ORGANIZATION_NUMBER, { message: 'organizationNumber must be a Swedish organisation number such as 556677-8899' })
  organizationNumber?: string | null;

  @Entries(() => RotRutDistributionDto) distribution?: RotRutDistributionDto[];
}

/** A shipment made for the order. */
export class OrderShipmentDto {
  @Required() @Code(15) id: string;
  @Required() @IsV3DateTime() date: string;
  @OptionalNullable() @Text(10) type?: string | null;

  @Required()
  @IsExactDecimal(SHIPPED_LIMITS)
  @DecimalMin(0, { exclusive: true })
  quantity: number | string;

  @OptionalNullIsAbsent()
  @IsExactDecimal(SHIPPED_LIMITS)
  @DecimalMin(0)
  weight?: number | string;

  @OptionalNullIsAbsent()
  @IsExactDecimal(SHIPPED_LIMITS)
  @DecimalMin(0)
  volume?: number | string;

  @OptionalNullable() @Text(10) inventoryDocumentType?: string | null;
  @OptionalNullable() @Text(15) inventoryReferenceId?: string | null;
  @OptionalNullable() @Text(2) invoiceType?: string | null;
  @OptionalNullable() @Text(15) invoiceId?: string | null;
}

/**
 * The view parts a create or PATCH body may carry (mixed into the header fields). `salesPersonId`
 * is the published document's; an empty string removes it on PATCH, as the document has it for
 * `shipViaId`. The rest are ours.
 */
export class OrderViewFieldsDto {
  @OptionalNullIsAbsent() @Text(15) salesPersonId?: string;

  /** The salesperson's commission, percent of the commissionable lines; null clears it (0). */
  @OptionalNullable()
  @IsExactDecimal(PERCENT_LIMITS)
  @DecimalMin(0)
  @DecimalMax(100)
  commissionPercent?: number | string | null;

  @Entries(() => OrderDiscountDto) discounts?: OrderDiscountDto[];
  @Entries(() => OrderTaxDto) taxes?: OrderTaxDto[];

  @OptionalNullable()
  @IsObject()
  @ValidateNested()
  @Type(() => RotRutDto)
  rotRut?: RotRutDto | null;

  @Entries(() => OrderShipmentDto) shipments?: OrderShipmentDto[];
}
