import { DETAIL_CODES, type FieldProblem } from '@erp/errors';
import { parseDecimal } from '@erp/decimals';
import type { PriceListEntryDto, PutPriceListDto } from './dto/price-rules.dto';
import { CUSTOMER_ID_PATTERN } from '../sales-orders/dto/order-parts.dto';
import { PRICE_CLASS_ID } from './dto/price-rules.dto';

/**
 * The rules of the price rule bodies beyond each field's shape (pure, unit tested): an entry prices
 * for one customer, one class or everyone; its dates are in order; one price per item, target,
 * quantity break and start date within a list (a second would make the rule ambiguous).
 * References (items, customers, classes) are checked by the use cases against the database.
 */

type Entry = Partial<PriceListEntryDto>;

function entriesOf(value: unknown): Array<Entry | undefined> {
  return Array.isArray(value) ? value.map((e: unknown) => (typeof e === 'object' && e !== null && !Array.isArray(e) ? (e as Entry) : undefined)) : [];
}

const given = (value: unknown): boolean => value !== undefined && value !== null;

/** What makes two entries the same rule: item, target, quantity break (as a decimal) and start date. */
function ruleKey(e: Entry): string | undefined {
  if (typeof e.inventoryId !== 'string') return undefined;
  const minQuantity = given(e.minQuantity) ? parseDecimal(e.minQuantity)?.toFixed() : '0';
  return [e.inventoryId, e.customerId ?? '', e.priceClassId ?? '', minQuantity ?? '?', e.effectiveFrom ?? ''].join('\u0000');
}

export function priceListProblems(dto: PutPriceListDto): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const first = new Map<string, number>();
  entriesOf(dto.entries).forEach((e, i) => {
    if (!e) return;
    const path = `entries[${i}]`;
    if (given(e.customerId) && given(e.priceClassId)) {
      problems.push({ field: `${path}.priceClassId`, message: 'give customerId or priceClassId (or neither, for every customer), not both', code: DETAIL_CODES.invalidValue });
    }
    if (typeof e.effectiveFrom === 'string' && typeof e.effectiveTo === 'string' && e.effectiveTo < e.effectiveFrom) {
      problems.push({ field: `${path}.effectiveTo`, message: 'effectiveTo must not be before effectiveFrom', code: DETAIL_CODES.invalidValue });
    }
    const key = ruleKey(e);
    if (key === undefined) return;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else {
      problems.push({
        field: path,
        message: `entries[${earlier}] already prices this item for the same customer or class, minQuantity and effectiveFrom`,
        code: DETAIL_CODES.invalidValue,
      });
    }
  });
  return problems;
}

/** The well-formed customer numbers and price class ids the entries name, with their fields. */
export function priceListReferences(dto: PutPriceListDto): { customers: Array<{ field: string; id: string }>; classes: Array<{ field: string; id: string }> } {
  const customers: Array<{ field: string; id: string }> = [];
  const classes: Array<{ field: string; id: string }> = [];
  entriesOf(dto.entries).forEach((e, i) => {
    if (typeof e?.customerId === 'string' && CUSTOMER_ID_PATTERN.test(e.customerId)) customers.push({ field: `entries[${i}].customerId`, id: e.customerId });
    if (typeof e?.priceClassId === 'string' && PRICE_CLASS_ID.test(e.priceClassId)) classes.push({ field: `entries[${i}].priceClassId`, id: e.priceClassId });
  });
  return { customers, classes };
}

/** One `0007-UnknownReference` per reference that is not in `existing`. */
export function unknownReferenceProblems(refs: Array<{ field: string; id: string }>, existing: ReadonlySet<string>, what: string, howToCreate: string): FieldProblem[] {
  return refs
    .filter((r) => !existing.has(r.id))
    .map((r) => ({ field: r.field, message: `${what} ${r.id} does not exist; ${howToCreate}`, code: DETAIL_CODES.unknownReference }));
}

/** A customer listed twice in one class. */
export function repeatedCustomerProblems(customers: unknown): FieldProblem[] {
  const seen = new Set<unknown>();
  const problems: FieldProblem[] = [];
  (Array.isArray(customers) ? customers : []).forEach((c: unknown, i) => {
    if (seen.has(c)) problems.push({ field: `customers[${i}]`, message: `customer ${String(c)} is listed twice`, code: DETAIL_CODES.invalidValue });
    seen.add(c);
  });
  return problems;
}
