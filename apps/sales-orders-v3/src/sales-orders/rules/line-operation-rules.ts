import { isPgInteger } from '@erp/database';
import { DETAIL_CODES, type FieldProblem } from '@erp/errors';
import type { PatchLineDto, PatchSalesOrderDto } from '../dto/patch-sales-order.dto';
import type { AddSalesOrderLinesDto, PatchSalesOrderLinesDto } from '../dto/sales-order-lines.dto';
import { type LineIdField, repeatedLineIdProblems, requiredLineFields } from './sales-order-rules';

/**
 * The line operations on `.../{orderId}/lines` are the order PATCH's line changes under another
 * address: each request becomes a PATCH body with `lines` only, so If-Match, all-or-nothing, the
 * totals and the event are the PATCH's own. Pure functions: the request's rules and that mapping.
 */

/** At most this many ids per DELETE `.../lines?ids=` (the v3 document's limit). */
export const MAX_DELETE_LINE_IDS = 1000;

export const DELETE_LINE_ID_FIELD: LineIdField = (i) => `ids[${i}]`;

function entries<T>(lines: unknown): Array<T | undefined> {
  if (!Array.isArray(lines)) return [];
  return lines.map((line) => (typeof line === 'object' && line !== null && !Array.isArray(line) ? (line as T) : undefined));
}

/** POST: every new line has inventoryId, quantity and unitPrice. */
export function addLinesRuleProblems(dto: AddSalesOrderLinesDto): FieldProblem[] {
  return entries<AddSalesOrderLinesDto['lines'][number]>(dto.lines).flatMap((line, i) =>
    line ? requiredLineFields(line, `lines[${i}]`, 'for a new line') : [],
  );
}

/** PATCH: each line is named once. */
export function patchLinesRuleProblems(dto: PatchSalesOrderLinesDto): FieldProblem[] {
  const ids = entries<PatchSalesOrderLinesDto['lines'][number]>(dto.lines).map((line) => line?.lineId);
  return repeatedLineIdProblems(ids, (i) => `lines[${i}].lineId`, (i) => `lines[${i}]`);
}

/** The order PATCH that adds the lines (`operation` left out: it is the line's direction, always null here). */
export function addLinesPatch(dto: AddSalesOrderLinesDto): PatchSalesOrderDto {
  return { lines: entries<AddSalesOrderLinesDto['lines'][number]>(dto.lines).map((line) => lineChange('insert', line)) };
}

/** The order PATCH that updates the lines each entry names. */
export function patchLinesPatch(dto: PatchSalesOrderLinesDto): PatchSalesOrderDto {
  return { lines: entries<PatchSalesOrderLinesDto['lines'][number]>(dto.lines).map((line) => lineChange('update', line)) };
}

/** The order PATCH that deletes the lines; entry i is `ids[i]`, so its problems can be named after it. */
export function deleteLinesPatch(ids: ReadonlyArray<number | undefined>): PatchSalesOrderDto {
  return { lines: ids.map((lineId) => ({ operation: 'delete', lineId }) as PatchLineDto) };
}

function lineChange(operation: PatchLineDto['operation'], line: object | undefined): PatchLineDto {
  const { operation: _direction, ...fields } = (line ?? {}) as Record<string, unknown>;
  return { ...fields, operation } as PatchLineDto;
}

/**
 * `ids` of DELETE `.../lines`: comma-separated (`ids=1,2`, as the document describes it) and/or
 * repeated (`ids=1&ids=2`, how generated clients send an array). Entry i stays at index i (undefined
 * when it is not a line id) so every problem is named `ids[i]`.
 */
export function parseDeleteLineIds(raw: string | string[] | undefined): { ids: Array<number | undefined>; problems: FieldProblem[] } {
  const texts = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).flatMap((value) => value.split(','));
  if (texts.length === 0 || texts.every((text) => text.trim() === '')) {
    return { ids: [], problems: [{ field: 'ids', message: 'ids is required: the line ids to delete, comma-separated', code: DETAIL_CODES.required }] };
  }
  if (texts.length > MAX_DELETE_LINE_IDS) {
    const message = `ids must hold at most ${MAX_DELETE_LINE_IDS} line ids (got ${texts.length}); send the rest in another request`;
    return { ids: [], problems: [{ field: 'ids', message, code: DETAIL_CODES.outOfRange }] };
  }
  const problems: FieldProblem[] = [];
  const ids = texts.map((text, i) => {
    const trimmed = text.trim();
    const id = /^\d{1,10}$/.test(trimmed) ? Number(trimmed) : undefined;
    if (id !== undefined && id >= 1 && isPgInteger(id)) return id;
    problems.push({ field: DELETE_LINE_ID_FIELD(i), message: `"${trimmed.slice(0, 20)}" is not a line id (a positive integer)`, code: DETAIL_CODES.invalidValue });
    return undefined;
  });
  problems.push(...repeatedLineIdProblems(ids, DELETE_LINE_ID_FIELD, DELETE_LINE_ID_FIELD));
  return { ids, problems };
}
