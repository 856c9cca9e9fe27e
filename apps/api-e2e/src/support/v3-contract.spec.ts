import { explainViolations } from './v3-contract-extensions';
import { V3Contract, type ContractRequest, type ContractResponse } from './v3-contract';

/**
 * The contract test's judge on made-up exchanges (no system): what the published document forbids is
 * reported, and only the documented extensions are let through, so a green contract test means something.
 */
const contract = new V3Contract();
const headers = { authorization: 'Bearer x', accept: 'application/json' };
const ORDER = '/api/v3/SalesOrders/SO/000001';

const order = {
  type: 'SO',
  orderId: '000001',
  date: '2026-01-31T00:00:00.000Z',
  status: { description: 'Open', hold: false, cancelled: false },
  totals: { discountTotal: 0, orderTotal: 10 },
  orderQty: 1,
  lastModified: '2026-01-31T10:00:00.000Z',
  version: 'MTIz',
};
const line = { lineId: 1, sortOrder: 1, inventory: { id: 'A', description: null }, quantity: 1, unitPrice: 10, extendedPrice: 10 };

function judge(operationId: string, request: Partial<ContractRequest>, response: ContractResponse) {
  const sent: ContractRequest = { method: 'get', path: ORDER, query: '', headers, ...request };
  const seen = new Set<string>();
  const violations = [...contract.checkRequest(operationId, sent), ...contract.checkResponse(operationId, response)];
  const unexplained = explainViolations(contract, violations, sent, response.body, seen);
  return { unexplained: unexplained.map((v) => `${v.part} ${v.at} ${v.keyword} ${v.subject ?? ''}`.trim()), seen: [...seen].sort() };
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1', ...extra });

beforeAll(async () => {
  await contract.init();
});

describe('the v3 contract judge', () => {
  it('passes a conforming order read, with its ETag and request id as documented extensions', () => {
    expect(judge('SalesOrders_GetItemAsync_typeorderId', {}, { status: 200, headers: json({ etag: '"123"' }), body: order })).toEqual({
      unexplained: [],
      seen: ['etag-header', 'request-id-header'],
    });
  });

  it('reports a property the schema forbids, a value off its format, a wrong type and an undeclared header', () => {
    const body = { ...order, totals: { ...order.totals, lineTotal: 10 }, version: '123', orderQty: '1' };
    expect(judge('SalesOrders_GetItemAsync_typeorderId', {}, { status: 200, headers: json({ 'x-powered-by': 'x' }), body }).unexplained.sort()).toEqual([
      'body /orderQty type',
      'body /totals additionalProperties lineTotal',
      'body /version format byte',
      'headers x-powered-by undeclared x-powered-by',
    ]);
  });

  it('reports a status the operation does not declare, a body where none is declared, and an undeclared media type', () => {
    expect(judge('SalesOrders_Patch_typeorderId', { method: 'patch', body: { note: 'x' } }, { status: 200, headers: json(), body: order }).unexplained).toEqual([
      'status  undeclared 200',
    ]);
    expect(judge('SalesOrders_Delete_typeorderId', { method: 'delete' }, { status: 202, headers: json(), body: { deleted: true } }).unexplained).toEqual([
      'body  undeclared',
    ]);
    expect(judge('SalesOrders_GetItemAsync_typeorderId', {}, { status: 200, headers: { 'content-type': 'application/xml' }, body: '<order/>' }).unexplained).toContain(
      'content-type  undeclared application/xml',
    );
  });

  it('reports a request that departs from the document: an unknown query parameter, a body property, a missing required one', () => {
    const ok = { status: 200, headers: json(), body: { value: [], totalCount: 0, nextPage: null } };
    expect(judge('SalesOrders_GetList_', { path: '/api/v3/SalesOrders', query: 'pageSize=10&colour=red' }, ok).unexplained).toEqual([
      'request /query additionalProperties colour',
    ]);
    const created = { status: 201, headers: json({ location: ORDER, etag: '"1"' }), body: order };
    expect(judge('SalesOrders_CreateNewItem_', { method: 'post', path: '/api/v3/SalesOrders', body: { customer: { id: '1' }, colour: 'red' } }, created).unexplained.sort()).toEqual([
      'request /requestBody additionalProperties colour',
      'request /requestBody required type',
    ]);
  });

  it('requires the headers the document declares (Location of a 201)', () => {
    const created = { status: 201, headers: json({ etag: '"1"' }), body: order };
    expect(judge('SalesOrders_CreateNewItem_', { method: 'post', path: '/api/v3/SalesOrders', body: { type: 'SO', customer: { id: '1' } } }, created).unexplained).toEqual([
      'headers /headers required location',
    ]);
  });

  it('validates what an extension adds against the document: the order a write answers, its lines, an expanded list item', () => {
    const created = (body: unknown) => ({ status: 201, headers: json({ location: ORDER, etag: '"1"' }), body });
    const post = { method: 'post' as const, path: '/api/v3/SalesOrders', body: { type: 'SO', customer: { id: '1' } } };
    expect(judge('SalesOrders_CreateNewItem_', post, created({ ...order, lines: [line] }))).toEqual({
      unexplained: [],
      seen: ['etag-header', 'order-lines-in-order', 'request-id-header', 'write-answers-carry-the-order'],
    });
    expect(judge('SalesOrders_CreateNewItem_', post, created({ ...order, paymentSettings: { terms: null }, lines: [{ ...line, colour: 'red' }] })).unexplained.sort()).toEqual([
      'body /lines/0 additionalProperties colour',
      'body /paymentSettings additionalProperties terms',
    ]);
    const page = (item: unknown) => ({ status: 200, headers: json(), body: { value: [item], totalCount: 1, nextPage: null } });
    const list = { path: '/api/v3/SalesOrders', query: 'expand=all' };
    expect(judge('SalesOrders_GetList_', list, page({ ...order, lines: [line] })).unexplained).toEqual([]);
    expect(judge('SalesOrders_GetList_', list, page({ ...order, billing: { address: { countryId: 'NO' } } })).unexplained).toEqual([
      'body /value/0/billing/address additionalProperties countryId',
    ]);
    // A departure under both the summary row and SalesOrderDto is not excused by the expand extension.
    expect(judge('SalesOrders_GetList_', list, page({ ...order, foo: 1, version: '123' })).unexplained.sort()).toEqual([
      'body /value/0 additionalProperties foo',
      'body /value/0/version format byte',
    ]);
    // Without expand an item must be a summary row.
    expect(judge('SalesOrders_GetList_', { path: '/api/v3/SalesOrders' }, page(order)).unexplained).toContain('body /value/0/status type');
  });

  it('lets an extension through only on the operations it is documented for', () => {
    // 428 is documented as an addition for DELETE and the line POST/DELETE, not for reads.
    const problem = { status: 428, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'r' }, body: { status: 428, title: 'x' } };
    expect(judge('SalesOrders_Delete_typeorderId', { method: 'delete' }, problem).unexplained).toEqual([]);
    expect(judge('SalesOrders_GetItemAsync_typeorderId', {}, problem).unexplained).toEqual(['status  undeclared 428']);
  });
});
