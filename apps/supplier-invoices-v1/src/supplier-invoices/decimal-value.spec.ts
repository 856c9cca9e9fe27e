import { decimalText, fitsLimits, parseDecimal } from './decimal-value';

describe('decimal values', () => {
  it('reads JSON numbers by their shortest text and numeric strings exactly', () => {
    expect(decimalText(0.1)).toBe('0.1');
    expect(decimalText(19.99)).toBe('19.99');
    expect(decimalText('1.005')).toBe('1.005');
    expect(decimalText(' 12.50 ')).toBe('12.5');
    expect(decimalText(1e21)).toBe('1000000000000000000000');
    expect(decimalText('0.12345678901234567')).toBe('0.12345678901234567');
    expect(decimalText('-0.000001')).toBe('-0.000001');
  });

  it('refuses a JSON number of more than 15 significant digits, which a double may not have carried exactly', () => {
    expect(parseDecimal(123456789012.345)).toBeDefined();
    expect(parseDecimal(0.12345678901234568)).toBeUndefined();
    expect(parseDecimal(1234567890123456)).toBeUndefined();
  });

  it('refuses what is not a finite decimal', () => {
    for (const value of ['abc', '', '1,5', '0x10', 'NaN', 'Infinity', null, undefined, true, {}, [1], Number.NaN, Infinity]) {
      expect(parseDecimal(value)).toBeUndefined();
    }
  });

  it('checks scale and integer digits exactly', () => {
    const limits = { integerDigits: 3, scale: 2 };
    expect(fitsLimits(parseDecimal('999.99')!, limits)).toBe(true);
    expect(fitsLimits(parseDecimal('1000')!, limits)).toBe(false);
    expect(fitsLimits(parseDecimal('0.001')!, limits)).toBe(false);
    expect(fitsLimits(parseDecimal('-999.99')!, limits)).toBe(true);
    expect(fitsLimits(parseDecimal('1.10')!, limits)).toBe(true);
  });
});
