import { isPgInteger } from '@erp/database';
import { DETAIL_CODES, type FieldProblem } from '@erp/errors';
import type { OrderViewFieldsDto } from '../dto/order-views.dto';

/**
 * The rules of the order's view parts (discounts, taxes, ROT/RUT, shipments) beyond each field's
 * shape: what an entry needs given its other fields, and keys that must not repeat on one order.
 * Problems, never throws, so the 400 lists them with the rest of the body's.
 */

function entriesOf(value: unknown): Array<Record<string, unknown> | undefined> {
  return Array.isArray(value) ? value.map((e: unknown) => (typeof e === 'object' && e !== null && !Array.isArray(e) ? (e as Record<string, unknown>) : undefined)) : [];
}

/** A key given twice is a problem at the second place, naming the first. */
function repeated(path: string, entries: Array<Record<string, unknown> | undefined>, keyOf: (e: Record<string, unknown>) => unknown, what: string): FieldProblem[] {
  const first = new Map<string, number>();
  const problems: FieldProblem[] = [];
  entries.forEach((entry, i) => {
    const key = entry ? keyOf(entry) : undefined;
    if (typeof key !== 'string') return;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else problems.push({ field: `${path}[${i}]`, message: `${what} is already given by ${path}[${earlier}]`, code: DETAIL_CODES.invalidValue });
  });
  return problems;
}

function discountProblems(dto: OrderViewFieldsDto): FieldProblem[] {
  const entries = entriesOf(dto.discounts);
  const problems = repeated('discounts', entries, (e) => e.discountId, 'this discountId');
  entries.forEach((e, i) => {
    if (!e) return;
    const percent = e.discountPercent !== undefined && e.discountPercent !== null;
    const amount = e.discountAmount !== undefined && e.discountAmount !== null;
    if (percent && amount) {
      problems.push({ field: `discounts[${i}].discountAmount`, message: 'give discountPercent or discountAmount, not both', code: DETAIL_CODES.invalidValue });
    } else if (!percent && !amount) {
      problems.push({ field: `discounts[${i}].discountPercent`, message: 'discountPercent or discountAmount is required', code: DETAIL_CODES.required });
    }
  });
  return problems;
}

function rotRutProblems(dto: OrderViewFieldsDto): FieldProblem[] {
  const rotRut = dto.rotRut;
  if (typeof rotRut !== 'object' || rotRut === null) return [];
  const entries = entriesOf(rotRut.distribution);
  const problems = repeated('rotRut.distribution', entries, (e) => (typeof e.personalId === 'string' ? `${String(e.lineId)}/${e.personalId}` : undefined), 'this lineId and personalId');
  const automatic = rotRut.distributedAutomatically === true;
  entries.forEach((e, i) => {
    if (!e) return;
    if (automatic && e.amount !== undefined) {
      problems.push({
        field: `rotRut.distribution[${i}].amount`,
        message: 'amount must not be given when distributedAutomatically is true: the service computes it',
        code: DETAIL_CODES.invalidValue,
      });
    } else if (!automatic && e.amount === undefined) {
      problems.push({ field: `rotRut.distribution[${i}].amount`, message: 'amount is required unless distributedAutomatically is true', code: DETAIL_CODES.required });
    }
  });
  return problems;
}

/** Every problem of the view parts of a create or PATCH body. */
export function orderViewProblems(dto: OrderViewFieldsDto): FieldProblem[] {
  return [
    ...discountProblems(dto),
    ...repeated('taxes', entriesOf(dto.taxes), (e) => e.taxId, 'this taxId'),
    ...rotRutProblems(dto),
    ...repeated('shipments', entriesOf(dto.shipments), (e) => e.id, 'this shipment id'),
  ];
}

/** The line ids a body's ROT/RUT distribution names (entry index and id; ids a line column cannot hold are left to the DTO). */
export function rotRutLineRefs(dto: OrderViewFieldsDto): Array<{ index: number; lineId: number }> {
  const rotRut = dto.rotRut;
  if (typeof rotRut !== 'object' || rotRut === null) return [];
  return entriesOf(rotRut.distribution).flatMap((e, index) => (e && isPgInteger(e.lineId) && e.lineId >= 1 ? [{ index, lineId: e.lineId }] : []));
}

/** Distribution entries naming a line the order does not have once written (`lineIds`: its lines then). */
export function rotRutLineProblems(refs: Array<{ index: number; lineId: number }>, lineIds: ReadonlySet<number>): FieldProblem[] {
  return refs
    .filter((r) => !lineIds.has(r.lineId))
    .map((r) => ({
      field: `rotRut.distribution[${r.index}].lineId`,
      message: `line ${r.lineId} is not on this order`,
      code: DETAIL_CODES.unknownReference,
    }));
}
