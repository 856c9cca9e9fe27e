import { isPgInteger } from '@erp/database';
import { DETAIL_CODES, type FieldProblem } from '@erp/errors';
import { INACTIVE_CUSTOMER_STATUS, isOrderType, ORDER_TYPE_CODES } from '@erp/sales-orders-queries';
import type { CustomerSnapshot } from '../../customers/customer-snapshots.service';
import type { CreateSalesOrderDto } from '../dto/create-sales-order.dto';
import type { LineFieldsDto } from '../dto/order-parts.dto';
import { CUSTOMER_ID_PATTERN } from '../dto/order-parts.dto';
import type { PatchLineDto, PatchSalesOrderDto } from '../dto/patch-sales-order.dto';
import { manualPriceProblems } from './line-pricing-rules';
import { orderViewProblems, rotRutLineProblems, rotRutLineRefs } from './order-view-rules';

/**
 * The business rules of an order body, on top of its shape (the DTOs, checked by the global
 * validation pipe): which line fields an operation needs or forbids, one operation per line,
 * known order types, and the customer reference. Each returns problems (never throws), so the
 * use case answers every problem of a request in one 400.
 */

function problem(field: string, message: string, code: FieldProblem['code'] = DETAIL_CODES.invalidValue): FieldProblem {
  return { field, message, code };
}

/** Problems sorted by field path (`lines[2]` before `lines[10]`), as the 400 lists them. */
export function byField(a: FieldProblem, b: FieldProblem): number {
  return a.field.localeCompare(b.field, 'en', { numeric: true });
}

const LINE_FIELDS = [
  'inventoryId',
  'quantity',
  'unitPrice',
  'discountPercent',
  'description',
  'unitOfMeasure',
  'warehouseId',
  'requestDate',
  'note',
  'taxCategoryId',
  'commissionable',
  'sortOrder',
  'hasManualPrice',
  'hasManualDiscount',
] as const satisfies ReadonlyArray<keyof LineFieldsDto>;

// unitPrice is not required: without it the price rules set the price (rules/line-pricing-rules.ts).
const NEW_LINE_REQUIRED = ['inventoryId', 'quantity'] as const;

/** PATCH header fields: a body that has none of them and no line changes changes nothing. */
const PATCH_HEADER_FIELDS = [
  'customer',
  'date',
  'requestOn',
  'cancelBy',
  'description',
  'note',
  'status',
  'currencyId',
  'billing',
  'shipping',
  'paymentSettings',
  'salesPersonId',
  'commissionPercent',
  'discounts',
  'taxes',
  'rotRut',
  'shipments',
  'freight',
] as const satisfies ReadonlyArray<keyof PatchSalesOrderDto>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A header field that changes nothing: absent, or a part whose every field is absent (null of a
 * document property that is read as absent, e.g. `customer: { id: null }`). A null that clears a
 * field (`description: null`) is a change.
 */
function changesNothing(value: unknown): boolean {
  return value === undefined || (isObject(value) && Object.values(value).every(changesNothing));
}

export function requiredLineFields(line: LineFieldsDto, path: string, why: string): FieldProblem[] {
  return [
    ...NEW_LINE_REQUIRED.filter((field) => line[field] === undefined).map((field) =>
      problem(`${path}.${field}`, `${field} is required ${why}`, DETAIL_CODES.required),
    ),
    ...manualPriceProblems(line, path),
  ];
}

export function orderTypeProblems(type: unknown): FieldProblem[] {
  if (typeof type !== 'string' || type.trim() === '' || isOrderType(type)) return [];
  return [problem('type', `type must be one of ${ORDER_TYPE_CODES.join(', ')}`, DETAIL_CODES.unknownReference)];
}

/**
 * The payment method and terms have two names each (this service's `paymentSettings.method` /
 * `terms` and the document's `paymentSettings.paymentMethodId` / `customer.termsId`): one per request.
 */
export function paymentProblems(dto: Pick<CreateSalesOrderDto | PatchSalesOrderDto, 'paymentSettings' | 'customer'>): FieldProblem[] {
  const settings = isObject(dto.paymentSettings) ? dto.paymentSettings : {};
  const customer = isObject(dto.customer) ? dto.customer : {};
  const problems: FieldProblem[] = [];
  if (settings.paymentMethodId !== undefined && settings.method !== undefined) {
    problems.push(problem('paymentSettings.paymentMethodId', 'give paymentSettings.method or paymentSettings.paymentMethodId, not both'));
  }
  if (customer.termsId !== undefined && settings.terms !== undefined) {
    problems.push(problem('customer.termsId', 'give customer.termsId or paymentSettings.terms, not both'));
  }
  return problems;
}

/** POST: a known type, the view parts' rules, and every line has inventoryId and quantity. */
export function createRuleProblems(dto: CreateSalesOrderDto): FieldProblem[] {
  const orderLines: unknown[] = Array.isArray(dto.orderLines) ? dto.orderLines : [];
  // A new order's lines get the ids 1..n in the order sent.
  const lineIds = new Set(orderLines.map((_, i) => i + 1));
  const problems = [...orderTypeProblems(dto.type), ...orderViewProblems(dto), ...paymentProblems(dto), ...rotRutLineProblems(rotRutLineRefs(dto), lineIds)];
  orderLines.forEach((line, i) => {
    if (isObject(line)) problems.push(...requiredLineFields(line as LineFieldsDto, `orderLines[${i}]`, 'for every order line'));
  });
  return problems;
}

/** A customer id the use case should look up: one that passed its own format check. */
export function customerIdToCheck(customer: unknown): string | undefined {
  const id = isObject(customer) ? customer.id : undefined;
  return typeof id === 'string' && CUSTOMER_ID_PATTERN.test(id) ? id : undefined;
}

/** Unknown customer -> 0007-UnknownReference; inactive customer -> 0008-InactiveReference. */
export function customerProblems(customerId: string, snapshot: CustomerSnapshot | undefined): FieldProblem[] {
  if (!snapshot) {
    return [problem('customer.id', `customer ${customerId} does not exist`, DETAIL_CODES.unknownReference)];
  }
  if (snapshot.status === INACTIVE_CUSTOMER_STATUS) {
    return [problem('customer.id', `customer ${customerId} is inactive`, DETAIL_CODES.inactiveReference)];
  }
  return [];
}

/**
 * PATCH: the body changes something; `insert` has the new line's required fields and no lineId;
 * `update` and `delete` name a lineId; `delete` carries nothing else; each line is changed once.
 */
export function patchRuleProblems(dto: PatchSalesOrderDto): FieldProblem[] {
  const problems: FieldProblem[] = [...orderViewProblems(dto), ...paymentProblems(dto)];
  const lines: unknown[] = Array.isArray(dto.lines) ? dto.lines : [];
  if (PATCH_HEADER_FIELDS.every((field) => changesNothing(dto[field])) && lines.length === 0) {
    problems.push(problem('body', 'must change at least one header field or line', DETAIL_CODES.required));
  }
  lines.forEach((entry, i) => {
    if (!isObject(entry)) return;
    const line = entry as unknown as PatchLineDto;
    const path = `lines[${i}]`;
    if (line.operation === 'insert') {
      if (line.lineId !== undefined) {
        problems.push(problem(`${path}.lineId`, 'lineId must not be given for insert: the server assigns line ids'));
      }
      problems.push(...requiredLineFields(line, path, 'for insert'));
      return;
    }
    if (line.operation !== 'update' && line.operation !== 'delete') return;
    if (line.lineId === undefined) {
      problems.push(problem(`${path}.lineId`, `lineId is required for ${line.operation}`, DETAIL_CODES.required));
    }
    if (line.operation === 'delete') {
      for (const field of LINE_FIELDS) {
        if (line[field] !== undefined) problems.push(problem(`${path}.${field}`, `${field} must not be given with delete`));
      }
    }
  });
  const changedIds = lines.map((entry) => (isObject(entry) && (entry.operation === 'update' || entry.operation === 'delete') ? entry.lineId : undefined));
  problems.push(...repeatedLineIdProblems(changedIds, PATCH_LINE_ID_FIELD, (i) => `lines[${i}]`));
  return problems;
}

/**
 * Each line is changed at most once per request: a second change of the same id is a problem at
 * its place (`fieldOf(i)`), naming the first (`entryOf(first)`). Non-integers are left to the shape rules.
 */
export function repeatedLineIdProblems(ids: readonly unknown[], fieldOf: (i: number) => string, entryOf: (i: number) => string): FieldProblem[] {
  const first = new Map<number, number>();
  const problems: FieldProblem[] = [];
  ids.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isInteger(id)) return;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, i);
    else problems.push(problem(fieldOf(i), `line ${id} is already changed by ${entryOf(earlier)}; send one operation per line`));
  });
  return problems;
}

/**
 * The update/delete entries whose lineId must exist on the order: index in `lines` and the id.
 * Only ids a line id column can hold are looked up; others already have their problem from the
 * DTO (`@Max`), and as SQL parameters they would fail the query (a 500, found by fuzzing).
 */
export function referencedLineIds(dto: PatchSalesOrderDto): Array<{ index: number; lineId: number }> {
  const refs: Array<{ index: number; lineId: number }> = [];
  (Array.isArray(dto.lines) ? dto.lines : []).forEach((line, index) => {
    if (isObject(line) && (line.operation === 'update' || line.operation === 'delete') && isPgInteger(line.lineId)) {
      refs.push({ index, lineId: line.lineId });
    }
  });
  return refs;
}

/** Where the 400 names the line id of entry i of a request's line changes. */
export type LineIdField = (index: number) => string;
export const PATCH_LINE_ID_FIELD: LineIdField = (i) => `lines[${i}].lineId`;

/** The referenced line ids that the order does not have, each at its place in `lines`. */
export function unknownLineProblems(
  refs: Array<{ index: number; lineId: number }>,
  existing: ReadonlySet<number>,
  fieldOf: LineIdField = PATCH_LINE_ID_FIELD,
): FieldProblem[] {
  return refs
    .filter((r) => !existing.has(r.lineId))
    .map((r) => problem(fieldOf(r.index), `line ${r.lineId} does not exist on this order`, DETAIL_CODES.unknownReference));
}
