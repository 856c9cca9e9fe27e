import { validateBodyShape as validateBody } from '@erp/errors';
import { LineFieldsDto } from './order-parts.dto';

function problemsOf(line: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(validateBody(LineFieldsDto, line).problems.map((p) => [p.field, p.code]));
}

/** The decimal rule itself is @erp/decimals' (and sales-order-decimals.spec.ts); here, each line field's own limits and codes. */
describe('line fields', () => {
  it.each([
    [{ quantity: 0 }, { quantity: '0005-OutOfRange' }],
    [{ quantity: '-0.5' }, { quantity: '0005-OutOfRange' }],
    [{ quantity: '1.0000001' }, { quantity: '0002-InvalidValue' }],
    [{ quantity: '1234567890123' }, { quantity: '0002-InvalidValue' }],
    [{ quantity: 'ten' }, { quantity: '0002-InvalidValue' }],
    [{ quantity: 0.30000000000000004 }, { quantity: '0002-InvalidValue' }],
    [{ unitPrice: -1 }, { unitPrice: '0005-OutOfRange' }],
    [{ discountPercent: 100.0001 }, { discountPercent: '0005-OutOfRange' }],
    [{ discountPercent: '12.34567' }, { discountPercent: '0002-InvalidValue' }],
    [{ quantity: null }, { quantity: '0001-NullNotAllowed' }],
    [{ requestDate: '2026-02-30' }, { requestDate: '0006-InvalidFormat' }],
    [{ inventoryId: '' }, { inventoryId: '0006-InvalidFormat' }],
    [{ description: 'x'.repeat(257) }, { description: '0004-TooLong' }],
    [{ sortOrder: 1.5 }, { sortOrder: '0002-InvalidValue' }],
    [{ colour: 'red' }, { colour: '0003-UnknownProperty' }],
  ])('reports %j with the documented code', (line, expected) => {
    expect(problemsOf(line)).toEqual(expected);
  });

  it('accepts the limits themselves', () => {
    expect(problemsOf({ quantity: '0.000001', unitPrice: 0, discountPercent: 100, description: null, requestDate: '2026-04-21T10:00:00+02:00' })).toEqual({});
  });
});

describe('text fields', () => {
  it('refuse a lone surrogate (no UTF-8 form, PostgreSQL cannot keep it) and keep surrogate pairs', () => {
    expect(problemsOf({ description: 'a\ud800b' })).toEqual({ description: '0002-InvalidValue' });
    expect(problemsOf({ note: '\udc00' })).toEqual({ note: '0002-InvalidValue' });
    expect(problemsOf({ description: '😀 Ærø' })).toEqual({});
  });
});
