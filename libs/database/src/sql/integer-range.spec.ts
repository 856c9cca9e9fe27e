import { isPgInteger, PG_INTEGER_MAX, PG_INTEGER_MIN } from './integer-range';

describe('isPgInteger (PostgreSQL integer range)', () => {
  it.each([0, 1, -1, PG_INTEGER_MAX, PG_INTEGER_MIN])('accepts %p', (value) => expect(isPgInteger(value)).toBe(true));
  it.each([PG_INTEGER_MAX + 1, PG_INTEGER_MIN - 1, 1e308, Number("123456789012345678901234567890"), 1.5, Number.NaN, Infinity, '1', null, undefined])(
    'refuses %p',
    (value) => expect(isPgInteger(value)).toBe(false),
  );
});
