import { validateBodyShape as validateBody } from '@erp/errors';
import { CreateSalesOrderDto } from '../dto/create-sales-order.dto';
import { PatchSalesOrderDto } from '../dto/patch-sales-order.dto';
import { lineChanges, lineRecord } from '../repository/order-records';
import { createRuleProblems, customerProblems, patchRuleProblems, referencedLineIds, unknownLineProblems } from './sales-order-rules';

const patch = (body: unknown) => validateBody(PatchSalesOrderDto, body).dto;
const fields = (problems: Array<{ field: string }>) => problems.map((p) => p.field);

describe('PATCH line rules', () => {
  it('accepts one operation per line with the fields each operation needs', () => {
    const dto = patch({
      lines: [
        { operation: 'insert', inventoryId: 'A', quantity: 1, unitPrice: 1 },
        { operation: 'update', lineId: 1, note: null },
        { operation: 'delete', lineId: 2 },
      ],
    });
    expect(patchRuleProblems(dto)).toEqual([]);
    expect(referencedLineIds(dto)).toEqual([
      { index: 1, lineId: 1 },
      { index: 2, lineId: 2 },
    ]);
  });

  it('names each broken rule at its line', () => {
    const dto = patch({
      lines: [
        { operation: 'insert', lineId: 3, quantity: 1, hasManualPrice: true },
        { operation: 'update' },
        { operation: 'delete', lineId: 4, note: 'why' },
        { operation: 'update', lineId: 4, quantity: 2 },
      ],
    });
    expect(fields(patchRuleProblems(dto))).toEqual([
      'lines[0].lineId',
      'lines[0].inventoryId',
      'lines[0].unitPrice',
      'lines[1].lineId',
      'lines[2].note',
      'lines[3].lineId',
    ]);
  });

  it('refuses a body that changes nothing', () => {
    expect(fields(patchRuleProblems(patch({})))).toEqual(['body']);
    expect(fields(patchRuleProblems(patch({ lines: [] })))).toEqual(['body']);
    // null on the header is "unchanged" (generated clients send it for every field not set)
    expect(fields(patchRuleProblems(patch({ note: null, customer: { refNo: null }, billing: null })))).toEqual(['body']);
    expect(patchRuleProblems(patch({ note: 'x' }))).toEqual([]);
    expect(patchRuleProblems(patch({ billing: { contact: { email: null } } }))).toEqual([]);
  });

  it('sends only the fields given to the bulk update, nulls included', () => {
    const dto = patch({ lines: [{ operation: 'update', lineId: 7, quantity: '1.50', note: null, requestDate: '2026-04-21T02:00:00+02:00' }] });
    expect(lineChanges(dto.lines![0])).toEqual({ line_id: 7, quantity: '1.5', note: null, request_date: '2026-04-21T00:00:00.000Z' });
  });
});

describe('create rules', () => {
  it('requires inventoryId and quantity on every line, unitPrice only with hasManualPrice true, and a known type', () => {
    const { dto } = validateBody(CreateSalesOrderDto, {
      type: 'XX',
      customer: { id: '1' },
      orderLines: [{ inventoryId: 'A' }, { inventoryId: 'B', quantity: 1, hasManualPrice: true }, { inventoryId: 'C', quantity: 1, hasManualPrice: false }],
    });
    expect(createRuleProblems(dto).map((p) => [p.field, p.code])).toEqual([
      ['type', '0007-UnknownReference'],
      ['orderLines[0].quantity', '0001-NullNotAllowed'],
      ['orderLines[1].unitPrice', '0001-NullNotAllowed'],
    ]);
  });

  it('turns a line into the insert record with exact decimals and a default discount of 0', () => {
    const { dto } = validateBody(CreateSalesOrderDto, { type: 'SO', customer: { id: '1' }, orderLines: [{ inventoryId: 'A', quantity: 0.1, unitPrice: '2.50' }] });
    expect(lineRecord(dto.orderLines![0], 1)).toMatchObject({ n: 1, quantity: '0.1', unit_price: '2.5', discount_percent: '0', sort_order: null });
  });
});

describe('customer reference', () => {
  it('is unknown without a snapshot, inactive when the snapshot says so', () => {
    expect(customerProblems('1', undefined)[0].code).toBe('0007-UnknownReference');
    expect(customerProblems('1', { customerId: '1', name: 'x', status: 'Inactive', currencyId: null, version: '1' })[0].code).toBe('0008-InactiveReference');
    expect(customerProblems('1', { customerId: '1', name: 'x', status: 'CreditHold', currencyId: null, version: '1' })).toEqual([]);
  });
});

describe('line references', () => {
  it('names each referenced line the order does not have, at its place in lines', () => {
    const refs = [
      { index: 0, lineId: 1 },
      { index: 2, lineId: 9 },
    ];
    expect(unknownLineProblems(refs, new Set([1]))).toEqual([
      { field: 'lines[2].lineId', message: 'line 9 does not exist on this order', code: '0007-UnknownReference' },
    ]);
    expect(unknownLineProblems(refs, new Set([1, 9]))).toEqual([]);
  });
});
