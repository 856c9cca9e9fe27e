import { parseV3DateTime } from '@erp/paging';
import { decimalText } from '@erp/decimals';
import type { AddressAndContactDto, CodeDescriptionDto, FreightDto, LineFieldsDto, PaymentSettingsDto } from '../dto/order-parts.dto';
import type { OrderDiscountDto, OrderShipmentDto, OrderTaxDto, OrderViewFieldsDto, RotRutDto } from '../dto/order-views.dto';
import type { PatchLineDto } from '../dto/patch-sales-order.dto';
import { newLinePricing, updatedLinePricing } from '../rules/line-pricing-rules';

/**
 * Validated DTO values as the SQL of the repositories reads them: decimals as exact decimal text,
 * timestamps as ISO instants, jsonb parts in their stored shape. Pure functions, unit tested.
 */

export const EMPTY_ADDRESS = { line1: null, line2: null, line3: null, postalCode: null, city: null, countryId: null, stateId: null };
export const EMPTY_CONTACT = { name: null, attention: null, email: null, phone1: null };

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A validated timestamp body value as the ISO instant SQL receives (`::timestamptz`). */
export function instantOf(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const date = parseV3DateTime(value);
  if (!date) throw new Error('instantOf called with a value that was not validated');
  return date.toISOString();
}

/** `billing`/`shipping` as stored on create: both parts always present, each a full object or null. */
export function addressAndContact(dto: AddressAndContactDto | undefined): object {
  return {
    address: dto?.address ? { ...EMPTY_ADDRESS, ...definedOnly(dto.address) } : null,
    contact: dto?.contact ? { ...EMPTY_CONTACT, ...definedOnly(dto.contact) } : null,
  };
}

function codeDescription(dto: CodeDescriptionDto | null | undefined): object | null | undefined {
  if (dto === undefined || dto === null) return dto;
  return { id: dto.id, description: dto.description ?? null };
}

/** An id sent under the document's flat name (`paymentMethodId`, `customer.termsId`) as the stored part; "" removes it. */
function byId(id: string): object | null {
  return id === '' ? null : { id, description: null };
}

/**
 * The sent parts of `paymentSettings` (absent keys are left as they are on PATCH): `terms` and
 * `method`, or the document's `customer.termsId` and `paymentSettings.paymentMethodId` for them.
 */
export function paymentSettings(dto: PaymentSettingsDto | undefined, termsId?: string): Record<string, unknown> {
  return definedOnly({
    terms: termsId === undefined ? codeDescription(dto?.terms) : byId(termsId),
    method: dto?.paymentMethodId === undefined ? codeDescription(dto?.method) : byId(dto.paymentMethodId),
  });
}

/**
 * One new line as the SQL insert reads it (jsonb_to_recordset). `n` numbers the new lines of the
 * request from 1; their ids follow the order's last line id.
 */
export function lineRecord(line: LineFieldsDto, n: number): Record<string, unknown> {
  const pricing = newLinePricing(line);
  return {
    n,
    inventory_id: line.inventoryId,
    description: line.description ?? null,
    quantity: decimalText(line.quantity),
    // A price or discount left to the rules is written as 0 and set by the reprice statement in the same transaction.
    unit_price: pricing.hasManualPrice ? decimalText(line.unitPrice) : '0',
    discount_percent: pricing.hasManualDiscount ? decimalText(line.discountPercent ?? 0) : '0',
    has_manual_price: pricing.hasManualPrice,
    has_manual_discount: pricing.hasManualDiscount,
    unit_of_measure: line.unitOfMeasure ?? null,
    warehouse_id: line.warehouseId ?? null,
    request_date: instantOf(line.requestDate),
    note: line.note ?? null,
    tax_category_id: line.taxCategoryId ?? null,
    commissionable: line.commissionable ?? true,
    sort_order: line.sortOrder ?? null,
  };
}

/**
 * The changed fields of one line for the bulk UPDATE: only the keys the client sent (a key with
 * null clears the field), in the record's column names and SQL-ready values.
 */
export function lineChanges(line: PatchLineDto): Record<string, unknown> {
  const changes: Record<string, unknown> = { line_id: line.lineId };
  const pricing = updatedLinePricing(line);
  if (line.inventoryId !== undefined) changes.inventory_id = line.inventoryId;
  if (line.quantity !== undefined) changes.quantity = decimalText(line.quantity);
  // With the flag false the rules replace what was sent (the reprice statement that follows).
  if (line.unitPrice !== undefined && pricing.hasManualPrice !== false) changes.unit_price = decimalText(line.unitPrice);
  if (line.discountPercent !== undefined && pricing.hasManualDiscount !== false) changes.discount_percent = decimalText(line.discountPercent);
  if (pricing.hasManualPrice !== undefined) changes.has_manual_price = pricing.hasManualPrice;
  if (pricing.hasManualDiscount !== undefined) changes.has_manual_discount = pricing.hasManualDiscount;
  if (line.description !== undefined) changes.description = line.description;
  if (line.unitOfMeasure !== undefined) changes.unit_of_measure = line.unitOfMeasure;
  if (line.warehouseId !== undefined) changes.warehouse_id = line.warehouseId;
  if (line.requestDate !== undefined) changes.request_date = instantOf(line.requestDate);
  if (line.note !== undefined) changes.note = line.note;
  if (line.taxCategoryId !== undefined) changes.tax_category_id = line.taxCategoryId;
  if (line.commissionable !== undefined) changes.commissionable = line.commissionable;
  if (line.sortOrder !== undefined) changes.sort_order = line.sortOrder;
  return changes;
}

const decimalOrNull = (value: number | string | null | undefined): string | null => (value === undefined || value === null ? null : decimalText(value));

/** A document discount as stored: decimals as exact text, defaults filled in. */
export function discountRecord(d: OrderDiscountDto): object {
  return {
    discountId: d.discountId,
    discountSequenceId: d.discountSequenceId ?? null,
    discountPercent: decimalOrNull(d.discountPercent),
    discountAmount: decimalOrNull(d.discountAmount),
    skipDiscount: d.skipDiscount ?? false,
  };
}

export function taxRecord(t: OrderTaxDto): object {
  return {
    taxId: t.taxId,
    taxCategoryId: t.taxCategoryId,
    taxRate: decimalText(t.taxRate),
    taxType: t.taxType ?? 'VAT',
    includeInTaxable: t.includeInTaxable ?? true,
    exemptTax: t.exemptTax ?? false,
    isPendingTax: t.isPendingTax ?? false,
    isReverseTax: t.isReverseTax ?? false,
    isStatisticalTax: t.isStatisticalTax ?? false,
  };
}

export function rotRutRecord(r: RotRutDto): object {
  return {
    type: r.type,
    distributedAutomatically: r.distributedAutomatically ?? false,
    appartment: r.appartment ?? null,
    estate: r.estate ?? null,
    organizationNumber: r.organizationNumber ?? null,
    distribution: (r.distribution ?? []).map((e) => ({ lineId: e.lineId, personalId: e.personalId, amount: decimalOrNull(e.amount), extra: e.extra ?? null })),
  };
}

export function shipmentRecord(s: OrderShipmentDto): object {
  return {
    id: s.id,
    date: instantOf(s.date),
    type: s.type ?? null,
    quantity: decimalText(s.quantity),
    weight: decimalText(s.weight ?? 0),
    volume: decimalText(s.volume ?? 0),
    inventoryDocumentType: s.inventoryDocumentType ?? null,
    inventoryReferenceId: s.inventoryReferenceId ?? null,
    invoiceType: s.invoiceType ?? null,
    invoiceId: s.invoiceId ?? null,
  };
}

/** The freight columns a create or PATCH body sets (absent: as they are); `taxCategoryId` "" clears it (SQL nullif). */
export function freightColumns(freight: FreightDto | undefined): ViewColumns {
  return definedOnly({
    freightCost: freight?.cost === undefined ? undefined : decimalText(freight.cost),
    freightPremium: freight?.premiumAmount === undefined ? undefined : decimalText(freight.premiumAmount),
    freightTaxCategoryId: freight?.taxCategoryId,
  });
}

/**
 * The view columns a create or PATCH body sets, SQL-ready (jsonb parts as JSON text); a key is
 * absent when the body does not set it. `salesPersonId` "" clears it (SQL nullif).
 */
export interface ViewColumns {
  freightCost?: string;
  freightPremium?: string;
  freightTaxCategoryId?: string;
  salesPersonId?: string;
  commissionPercent?: string | null;
  discounts?: string;
  taxes?: string;
  rotRut?: string | null;
  shipments?: string;
}

export function viewColumns(dto: OrderViewFieldsDto): ViewColumns {
  return definedOnly({
    salesPersonId: dto.salesPersonId,
    commissionPercent: dto.commissionPercent === undefined ? undefined : decimalOrNull(dto.commissionPercent),
    discounts: dto.discounts && JSON.stringify(dto.discounts.map(discountRecord)),
    taxes: dto.taxes && JSON.stringify(dto.taxes.map(taxRecord)),
    rotRut: dto.rotRut === undefined ? undefined : dto.rotRut === null ? null : JSON.stringify(rotRutRecord(dto.rotRut)),
    shipments: dto.shipments && JSON.stringify(dto.shipments.map(shipmentRecord)),
  });
}
