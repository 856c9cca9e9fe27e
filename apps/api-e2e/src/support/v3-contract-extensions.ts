import type { ContractRequest, V3Contract, Violation } from './v3-contract';

/**
 * Every place where `/api/v3` knowingly goes beyond the published v3 document: the documented
 * extensions. The contract test (`v3-contract.e2e-spec.ts`) fails on any departure from the document
 * that no entry here matches, and on any entry that no request of the test produced any more (so this
 * list stays true). Each entry names the section of docs/api-conventions.md that documents it (the
 * test checks the heading exists).
 */
export interface DocumentedExtension {
  name: string;
  /** A heading of docs/api-conventions.md, exactly as written there (without the #s). */
  section: string;
  /** Text that section must contain: where it documents this extension (checked by the test). */
  mentions: string;
  /** What the extension is, in one sentence. */
  what: string;
  matches(violation: Violation, request: ContractRequest): boolean;
  /**
   * What the extension adds is still validated against the document where the document has a
   * schema for it: each entry is a value of the response body and the schema it must satisfy.
   */
  validateAs?(violation: Violation, body: unknown): Array<{ schema: string; value: unknown; at: string }>;
}

const SALES_ORDER_WRITES = ['SalesOrders_CreateNewItem_', 'SalesOrders_Patch_typeorderId'];
const ORDER_PATH_WRITES = [
  'SalesOrders_Delete_typeorderId',
  'SalesOrders_Patch_typeorderId',
  'SalesOrders_AddLines_typeorderIdlines',
  'SalesOrders_PatchLines_typeorderIdlines',
  'SalesOrders_DeleteLines_typeorderIdlines',
];
const SALES_ORDER_LISTS = ['SalesOrders_GetList_', 'SalesOrders_GetList_type'];
/** A full order's pointer: the body itself, or an item of a list page. */
const ORDER_AT = /^(\/value\/\d+)?$/;

function pointer(body: unknown, at: string): unknown {
  return at
    .split('/')
    .slice(1)
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body);
}

export const DOCUMENTED_EXTENSIONS: DocumentedExtension[] = [
  {
    name: 'list-expand',
    section: 'Lists (`GET /api/v3/SalesOrders[/{type}]`, `.../{orderId}/lines`)',
    mentions: '`expand` on the lists (items are then full orders',
    what: 'the order lists take `expand` (the specification asks for it); with it, items are full orders (SalesOrderDto) instead of summary rows',
    matches: (v) => SALES_ORDER_LISTS.includes(v.operationId) && v.part === 'request' && v.at === '/query' && v.keyword === 'additionalProperties' && v.subject === 'expand',
  },
  {
    name: 'list-expand-items-are-orders',
    section: 'Lists (`GET /api/v3/SalesOrders[/{type}]`, `.../{orderId}/lines`)',
    mentions: 'items are then full orders, the document\'s SalesOrderDto',
    what: 'with `expand`, list items are full orders, validated against SalesOrderDto instead of SalesOrderListDto',
    matches: (v, request) =>
      SALES_ORDER_LISTS.includes(v.operationId) && v.part === 'body' && v.against === undefined && /^\/value\/\d+/.test(v.at) && /(^|&)expand=/.test(request.query),
    validateAs: (v, body) => {
      const item = /^\/value\/\d+/.exec(v.at)?.[0] ?? v.at;
      return [{ schema: 'SalesOrderDto', value: pointer(body, item), at: item }];
    },
  },
  {
    name: 'order-lines-in-order',
    section: 'Lists (`GET /api/v3/SalesOrders[/{type}]`, `.../{orderId}/lines`)',
    mentions: 'and the `lines` part are additions to the document',
    what: 'a full order carries its `lines` (SalesOrderLineDto each) with `expand=lines` or `all`, and in the answers of POST and PATCH',
    matches: (v) => v.part === 'body' && ORDER_AT.test(v.at) && v.keyword === 'additionalProperties' && v.subject === 'lines',
    validateAs: (v, body) => {
      const lines = pointer(body, `${v.at}/lines`);
      return (Array.isArray(lines) ? lines : [lines]).map((line, i) => ({ schema: 'SalesOrderLineDto', value: line, at: `${v.at}/lines/${i}` }));
    },
  },
  {
    name: 'write-answers-carry-the-order',
    section: 'Orders',
    mentions: 'so is POST\'s 201 body (the created order)',
    what: 'POST (201) and PATCH (202) answer with the whole order (SalesOrderDto), where the document declares no body',
    matches: (v) => SALES_ORDER_WRITES.includes(v.operationId) && v.part === 'body' && v.at === '' && v.keyword === 'undeclared',
    validateAs: (_v, body) => [{ schema: 'SalesOrderDto', value: body, at: '' }],
  },
  {
    name: 'etag-header',
    section: 'ETags and events',
    mentions: 'answer with the `ETag` header',
    what: 'the order, its writes and the line operations answer with the order version as a strong `ETag` (the document says so in prose only)',
    matches: (v) =>
      v.part === 'headers' &&
      v.keyword === 'undeclared' &&
      v.subject === 'etag' &&
      [...SALES_ORDER_WRITES, ...ORDER_PATH_WRITES, 'SalesOrders_GetItemAsync_typeorderId'].includes(v.operationId),
  },
  {
    name: 'add-lines-location',
    section: 'Lines and PATCH',
    mentions: 'POST also carries `Location`',
    what: 'POST .../lines answers with `Location` (the order), as the document describes its 202 in prose without declaring the header',
    matches: (v) => v.operationId === 'SalesOrders_AddLines_typeorderIdlines' && v.part === 'headers' && v.keyword === 'undeclared' && v.subject === 'location',
  },
  {
    name: 'request-id-header',
    section: 'Errors',
    mentions: 'carries `x-request-id`',
    what: 'every response carries `x-request-id`',
    matches: (v) => v.part === 'headers' && v.keyword === 'undeclared' && v.subject === 'x-request-id',
  },
  {
    name: 'rate-limit-headers',
    section: 'Errors',
    mentions: '`x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset`',
    what: 'responses through the gateway carry `x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset` (the company\'s per-minute budget)',
    matches: (v) => v.part === 'headers' && v.keyword === 'undeclared' && ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(v.subject ?? ''),
  },
  {
    name: 'problem-json',
    section: 'Errors',
    mentions: '`/api/...`: `application/problem+json`',
    what: 'errors are `application/problem+json` (RFC 9457), the ProblemDetails shape the document declares as application/json',
    matches: (v) => v.part === 'content-type' && v.subject === 'application/problem+json',
  },
  {
    name: 'if-match-required-on-every-write',
    section: 'ETags and events',
    mentions: 'DELETE of an order and POST/DELETE `.../lines` answer them too',
    what: 'DELETE of an order and POST/DELETE .../lines answer 428 without If-Match and 412 on a stale one, like the PATCHes, though the document lists neither for them',
    matches: (v) =>
      ['SalesOrders_Delete_typeorderId', 'SalesOrders_AddLines_typeorderIdlines', 'SalesOrders_DeleteLines_typeorderIdlines'].includes(v.operationId) &&
      v.part === 'status' &&
      (v.subject === '428' || v.subject === '412'),
  },
];

/**
 * The violations no documented extension explains. What an extension adds is validated in turn against
 * the document's schema for it, and its departures are judged the same way. `seen` collects the names of
 * the extensions that explained something.
 */
export function explainViolations(
  contract: V3Contract,
  violations: Violation[],
  request: ContractRequest,
  body: unknown,
  seen: Set<string>,
  depth = 0,
): Violation[] {
  if (depth > 3) throw new Error('extensions validate each other in a loop');
  const unexplained: Violation[] = [];
  const nested = new Map<string, { schema: string; value: unknown; at: string; operationId: string }>();
  // Departures a specific extension explained (one that does not hand the part to another schema).
  const judged: Violation[] = [];
  for (const violation of violations) {
    const extension = DOCUMENTED_EXTENSIONS.find((candidate) => candidate.matches(violation, request));
    if (!extension) {
      unexplained.push(violation);
      continue;
    }
    seen.add(extension.name);
    if (!extension.validateAs) judged.push(violation);
    for (const target of extension.validateAs?.(violation, body) ?? []) {
      nested.set(`${target.at} ${target.schema}`, { ...target, operationId: violation.operationId });
    }
  }
  for (const target of nested.values()) {
    const more = contract.checkSchema(target.operationId, target.schema, target.value, target.at);
    // Only the added part's own departures: not the ones a specific extension already explained above.
    // A re-validating extension excuses the part wholesale, so what the new schema finds is judged
    // here (an undeclared property is a departure under both schemas and must not slip through).
    const fresh = more.filter((v) => !judged.some((known) => known.at === v.at && known.keyword === v.keyword && known.subject === v.subject));
    unexplained.push(...explainViolations(contract, fresh, request, body, seen, depth + 1));
  }
  return unexplained;
}
