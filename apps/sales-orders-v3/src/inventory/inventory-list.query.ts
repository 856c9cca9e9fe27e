import { DETAIL_CODES, type FieldProblem, unknownParameterProblem, ValidationFailedError } from '@erp/errors';
import { parseV3DateTime, parseV3Expand, parseV3PagingCollecting, type V3PageRequest } from '@erp/paging';
import { INVENTORY_CODE } from './dto/put-inventory-item.dto';

type Query = Record<string, string | string[] | undefined>;

/** What `expand` may name (the document's InventoryAvailabilityExpansions; `None` and `All` too). */
export const INVENTORY_EXPANSIONS = ['Location', 'Attribute'] as const;
export type InventoryExpansion = (typeof INVENTORY_EXPANSIONS)[number];

/** The document: "If not specified the default pagesize is 10000 items per page"; it is the maximum too. */
export const INVENTORY_PAGE_SIZE = 10_000;
/** At most this many values of one list filter (`inventoryId`, `warehouseId`, `locationId`, `attributeFilter`). */
export const MAX_FILTER_VALUES = 1000;
const ATTRIBUTE_ID = /^[A-Za-z0-9_.-]{1,30}$/;

export interface InventoryListQuery {
  inventoryIds?: string[];
  warehouseIds?: string[];
  locationIds?: string[];
  /** attribute id -> accepted values: values of one id are alternatives, different ids must all match. */
  attributes?: Record<string, string[]>;
  /** ISO 8601 in UTC. */
  modifiedSince?: string;
  expand: Set<InventoryExpansion>;
  page: V3PageRequest;
}

/** Parameter names as the document spells them; the request's names match them in any case (ASP.NET binding, `InventoryId=` in the document's own sample). */
const PARAMETERS = ['inventoryId', 'warehouseId', 'locationId', 'expand', 'modifiedSince', 'attributeFilter', 'pageSize', 'pageIndex'] as const;
const BY_LOWER_CASE = new Map<string, string>(PARAMETERS.map((p) => [p.toLowerCase(), p]));

/** The query with each parameter under its documented name; values of names differing only in case are joined (in order). */
function canonical(query: Query, problems: FieldProblem[]): Query {
  const result: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    const name = BY_LOWER_CASE.get(key.toLowerCase());
    if (!name) {
      problems.push(unknownParameterProblem(key));
      continue;
    }
    if (value !== undefined) (result[name] ??= []).push(...(Array.isArray(value) ? value : [value]));
  }
  return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
}

function list(value: string | string[] | undefined): string[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value];
}

/** Runs one parser, adding what it refuses to `problems` instead of stopping at the first. */
function collect<T>(problems: FieldProblem[], read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof ValidationFailedError) {
      problems.push(...error.fieldProblems);
      return undefined;
    }
    throw error;
  }
}

function codes(name: string, values: string[] | undefined, problems: FieldProblem[]): string[] | undefined {
  if (!values) return undefined;
  if (values.length > MAX_FILTER_VALUES) {
    problems.push({ field: name, message: `must have at most ${MAX_FILTER_VALUES} values`, code: DETAIL_CODES.outOfRange });
    return undefined;
  }
  values.forEach((value, i) => {
    if (!INVENTORY_CODE.test(value)) problems.push({ field: `${name}[${i}]`, message: `must be 1 to 30 characters without control characters`, code: DETAIL_CODES.invalidValue });
  });
  return [...new Set(values)];
}

/** `attributeFilter=ID:value`, repeated; the value may be empty and may contain `:` (only the first separates). */
function attributeFilters(values: string[] | undefined, problems: FieldProblem[]): Record<string, string[]> | undefined {
  if (!values) return undefined;
  if (values.length > MAX_FILTER_VALUES) {
    problems.push({ field: 'attributeFilter', message: `must have at most ${MAX_FILTER_VALUES} values`, code: DETAIL_CODES.outOfRange });
    return undefined;
  }
  const result: Record<string, string[]> = {};
  values.forEach((entry, i) => {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const value = colon < 0 ? '' : entry.slice(colon + 1);
    // eslint-disable-next-line no-control-regex -- control characters never occur in stored values (and PostgreSQL refuses U+0000)
    if (colon < 0 || !ATTRIBUTE_ID.test(id) || value.length > 255 || /[\u0000-\u001f\u007f]/.test(value)) {
      problems.push({
        field: `attributeFilter[${i}]`,
        message: 'must be attribute-id:attribute-value (the id 1 to 30 letters, digits, _ . or -; the value at most 255 characters without control characters), e.g. WEBSHOP:1',
        code: DETAIL_CODES.invalidFormat,
      });
      return;
    }
    (result[id] ??= []).push(value);
  });
  return result;
}

/**
 * Reads the query of GET /api/v3/Inventory. Every problem is collected and answered in one 400
 * (unknown parameters, bad `expand`, `modifiedSince`, `attributeFilter` entries, paging).
 */
export function parseInventoryListQuery(raw: Query): InventoryListQuery {
  const problems: FieldProblem[] = [];
  const query = canonical(raw, problems);
  const expandGiven = collect(problems, () => parseV3Expand(query.expand, [...INVENTORY_EXPANSIONS, 'None'] as const)) ?? new Set();
  const expand = new Set([...expandGiven].filter((e): e is InventoryExpansion => e !== 'None'));
  const page = parseV3PagingCollecting(query, { defaultPageSize: INVENTORY_PAGE_SIZE, maxPageSize: INVENTORY_PAGE_SIZE }, problems);
  let modifiedSince: string | undefined;
  const since = query.modifiedSince;
  if (since !== undefined) {
    // A long value is refused, not cut: cutting would accept a timestamp followed by anything.
    const parsed = Array.isArray(since) || since.length > 40 ? undefined : parseV3DateTime(since);
    if (!parsed) {
      problems.push({
        field: 'modifiedSince',
        message: 'must be one ISO 8601 timestamp, e.g. 2026-04-21T10:15:00Z or 2026-04-21T12:15:00+02:00 (UTC unless an offset is given)',
        code: DETAIL_CODES.invalidFormat,
      });
    } else modifiedSince = parsed.toISOString();
  }
  const result = {
    inventoryIds: codes('inventoryId', list(query.inventoryId), problems),
    warehouseIds: codes('warehouseId', list(query.warehouseId), problems),
    locationIds: codes('locationId', list(query.locationId), problems),
    attributes: attributeFilters(list(query.attributeFilter), problems),
    modifiedSince,
    expand,
  };
  if (problems.length > 0 || !page) throw new ValidationFailedError(problems);
  return { ...result, page };
}
