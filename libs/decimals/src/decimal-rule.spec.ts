import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { DECIMAL_RULE_CASES, QUANTITY_LIMITS_OF_THE_CASES } from './decimal-rule-cases';
import { DECIMAL_STRING, decimalProblem, decimalText, parseDecimal } from './decimal-rule';
import { DecimalMax, DecimalMin, IsExactDecimal } from './decimal-validators';

class Priced {
  @IsExactDecimal({ maxIntegerDigits: 3, maxScale: 2 }) @DecimalMin(0, { exclusive: true }) @DecimalMax(100) price?: unknown;
}

function constraintsOf(price: unknown): string[] {
  return validateSync(Object.assign(new Priced(), { price })).flatMap((e) => Object.keys(e.constraints ?? {}));
}

describe('the decimal rule', () => {
  it.each(DECIMAL_RULE_CASES.map((c) => [c.json, c.stored, c.why]))('%s -> %s (%s)', (json, stored) => {
    const value: unknown = JSON.parse(json as string);
    const problem = decimalProblem(value, QUANTITY_LIMITS_OF_THE_CASES);
    if (stored === null) expect(problem).toBeDefined();
    else expect([problem, decimalText(value)]).toEqual([undefined, stored]);
  });

  it('is the pattern the published documents show', () => {
    expect(DECIMAL_STRING.source).toBe('^-?\\d+(\\.\\d+)?$');
  });

  it('reads negative values and zero in any sign as plain text', () => {
    expect(decimalText('-0.000001')).toBe('-0.000001');
    expect(decimalText('-0')).toBe('0');
    expect(decimalText(-0)).toBe('0');
    expect(decimalText('0.10')).toBe('0.1');
  });

  it('refuses what is not a finite decimal', () => {
    for (const value of [null, undefined, {}, Number.NaN, Infinity, -Infinity, 1n]) expect(parseDecimal(value)).toBeUndefined();
    expect(() => decimalText('1e3')).toThrow(/not validated/);
  });

  it('names the broken limit', () => {
    const limits = { maxIntegerDigits: 3, maxScale: 2 };
    expect(decimalProblem('999.99', limits)).toBeUndefined();
    expect(decimalProblem('-999.99', limits)).toBeUndefined();
    expect(decimalProblem('1000', limits)).toMatch(/at most 3 digits before/);
    expect(decimalProblem('0.001', limits)).toMatch(/at most 2 decimal places/);
    expect(decimalProblem('1.10', limits)).toBeUndefined();
    expect(decimalProblem(0.30000000000000004, limits)).toMatch(/send it as a decimal string/);
    expect(decimalProblem('1e3', limits)).toMatch(/plain notation/);
  });

  it('keeps every decimal string within the limits exactly (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }), fc.integer({ min: 0, max: 6 }), fc.boolean(), (units, scale, negative) => {
        const digits = units.toString().padStart(scale + 1, '0');
        const text = `${negative ? '-' : ''}${scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`}`;
        if (text.replace('-', '').split('.')[0].replace(/^0+(?=\d)/, '').length > 12) return;
        expect(decimalProblem(text, QUANTITY_LIMITS_OF_THE_CASES)).toBeUndefined();
        expect(parseDecimal(decimalText(text))!.equals(parseDecimal(text)!)).toBe(true);
      }),
    );
  });

  it('takes JSON numbers of up to 15 significant digits as written (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), fc.integer({ min: 0, max: 6 }), (units, scale) => {
        const value = units / 10 ** scale;
        expect(decimalProblem(value, QUANTITY_LIMITS_OF_THE_CASES)).toBeUndefined();
        expect(decimalText(value)).toBe(parseDecimal(String(value))!.toFixed());
      }),
    );
  });

  it('gives the decorators the constraint names that map to the documented detail codes', () => {
    expect(constraintsOf('12.5')).toEqual([]);
    expect(constraintsOf('100')).toEqual([]);
    expect(constraintsOf('1e2')).toEqual(['isExactDecimal']);
    expect(constraintsOf('0')).toEqual(['min']);
    expect(constraintsOf('100.01')).toEqual(['max']);
    expect(constraintsOf('1000').sort()).toEqual(['isExactDecimal', 'max']);
  });
});
