import { DETAIL_CODES, type FieldProblem } from '@erp/errors';
import { INVENTORY_CODE } from './dto/put-inventory-item.dto';

/** An order line's item reference: where it is in the request and the id it names. */
export interface InventoryReference {
  field: string;
  inventoryId: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The item references of a request's lines (`<listName>[i].inventoryId`) that must exist: each
 * line that names an item in a well-formed id. A malformed one already has its problem from the
 * DTO; entries that are not objects too.
 */
export function inventoryReferences(lines: unknown, listName: string): InventoryReference[] {
  if (!Array.isArray(lines)) return [];
  const refs: InventoryReference[] = [];
  lines.forEach((line, i) => {
    const id = isObject(line) ? line.inventoryId : undefined;
    if (typeof id === 'string' && INVENTORY_CODE.test(id)) refs.push({ field: `${listName}[${i}].inventoryId`, inventoryId: id });
  });
  return refs;
}

/** One `0007-UnknownReference` per line that names an item the company does not have. */
export function unknownInventoryProblems(refs: InventoryReference[], existing: ReadonlySet<string>): FieldProblem[] {
  return refs
    .filter((r) => !existing.has(r.inventoryId))
    .map((r) => ({
      field: r.field,
      message: `inventory item ${r.inventoryId} does not exist; create it with PUT /api/v3/Inventory/{inventoryId}`,
      code: DETAIL_CODES.unknownReference,
    }));
}
