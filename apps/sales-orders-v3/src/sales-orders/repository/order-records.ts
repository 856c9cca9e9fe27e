import { parseV3DateTime } from '@erp/paging';
import type { AddressAndContactDto, CodeDescriptionDto, LineFieldsDto, PaymentSettingsDto } from '../dto/order-parts.dto';
import type { PatchLineDto } from '../dto/patch-sales-order.dto';
import { decimalText } from '../dto/validators';

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

/** The sent parts of `paymentSettings` (absent keys are left as they are on PATCH). */
export function paymentSettings(dto: PaymentSettingsDto | undefined): Record<string, unknown> {
  return definedOnly({ terms: codeDescription(dto?.terms), method: codeDescription(dto?.method) });
}

/**
 * One new line as the SQL insert reads it (jsonb_to_recordset). `n` numbers the new lines of the
 * request from 1; their ids follow the order's last line id.
 */
export function lineRecord(line: LineFieldsDto, n: number): Record<string, unknown> {
  return {
    n,
    inventory_id: line.inventoryId,
    description: line.description ?? null,
    quantity: decimalText(line.quantity),
    unit_price: decimalText(line.unitPrice),
    discount_percent: decimalText(line.discountPercent ?? 0),
    unit_of_measure: line.unitOfMeasure ?? null,
    warehouse_id: line.warehouseId ?? null,
    request_date: instantOf(line.requestDate),
    note: line.note ?? null,
    sort_order: line.sortOrder ?? null,
  };
}

/**
 * The changed fields of one line for the bulk UPDATE: only the keys the client sent (a key with
 * null clears the field), in the record's column names and SQL-ready values.
 */
export function lineChanges(line: PatchLineDto): Record<string, unknown> {
  const changes: Record<string, unknown> = { line_id: line.lineId };
  if (line.inventoryId !== undefined) changes.inventory_id = line.inventoryId;
  if (line.quantity !== undefined) changes.quantity = decimalText(line.quantity);
  if (line.unitPrice !== undefined) changes.unit_price = decimalText(line.unitPrice);
  if (line.discountPercent !== undefined) changes.discount_percent = decimalText(line.discountPercent);
  if (line.description !== undefined) changes.description = line.description;
  if (line.unitOfMeasure !== undefined) changes.unit_of_measure = line.unitOfMeasure;
  if (line.warehouseId !== undefined) changes.warehouse_id = line.warehouseId;
  if (line.requestDate !== undefined) changes.request_date = instantOf(line.requestDate);
  if (line.note !== undefined) changes.note = line.note;
  if (line.sortOrder !== undefined) changes.sort_order = line.sortOrder;
  return changes;
}
