import fc from 'fast-check';
import { validateBodyShape as validateBody } from '@erp/errors';
import { LineFieldsDto } from './order-parts.dto';
import { decimalText, toDecimal } from './validators';

function problemsOf(line: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(validateBody(LineFieldsDto, line).problems.map((p) => [p.field, p.code]));
}

describe('exact decimals in bodies', () => {
  it('accepts numbers and decimal strings and turns them into exact decimal text', () => {
    expect(decimalText(0.1)).toBe('0.1');
    expect(decimalText('0.10')).toBe('0.1');
    expect(decimalText('999999999999.999999')).toBe('999999999999.999999');
    expect(decimalText(1e-6)).toBe('0.000001');
    expect(decimalText(' 42 ')).toBe('42');
    expect(toDecimal('1e3')).toBeUndefined();
    expect(toDecimal(Number.NaN)).toBeUndefined();
    expect(toDecimal(true)).toBeUndefined();
  });

  it('keeps every decimal string within the limits exactly (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 18n - 1n }), fc.integer({ min: 0, max: 6 }), (units, scale) => {
        const digits = units.toString().padStart(scale + 1, '0');
        const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
        if (text.split('.')[0].replace(/^0+(?=\d)/, '').length > 12) return;
        expect(problemsOf({ quantity: text })).toEqual({});
        expect(toDecimal(decimalText(text))!.equals(toDecimal(text)!)).toBe(true);
      }),
    );
  });

  it('accepts JSON numbers of up to 15 significant digits as written (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), fc.integer({ min: 0, max: 6 }), (units, scale) => {
        const value = units / 10 ** scale;
        expect(problemsOf({ unitPrice: value })).toEqual({});
        expect(decimalText(value)).toBe(toDecimal(String(value))!.toFixed());
      }),
    );
  });

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
