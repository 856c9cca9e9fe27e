import { ValidationFailedError } from '@erp/errors';
import { parseV3Expand } from './v3-expand';

const PARTS = ['lines', 'customer', 'billing', 'note'] as const;

describe('parseV3Expand', () => {
  it('is empty when the parameter is absent', () => {
    expect(parseV3Expand(undefined, PARTS).size).toBe(0);
  });

  it('accepts comma-separated and repeated values, in any case, with spaces around commas', () => {
    expect([...parseV3Expand(['Lines, CUSTOMER', 'note'], PARTS)].sort()).toEqual(['customer', 'lines', 'note']);
  });

  it('expands everything for all', () => {
    expect([...parseV3Expand('ALL', PARTS)].sort()).toEqual([...PARTS].sort());
    expect(parseV3Expand('all,lines', PARTS).size).toBe(PARTS.length);
  });

  it('accepts the values given as meaning nothing, alone or with others, and names them among the allowed', () => {
    expect(parseV3Expand('None', PARTS, 'expand', ['none']).size).toBe(0);
    expect([...parseV3Expand(['none', 'Lines'], PARTS, 'expand', ['none'])]).toEqual(['lines']);
    expect(() => parseV3Expand('bogus', PARTS, 'expand', ['none'])).toThrow(/allowed: lines, customer, billing, note, all, none$/);
  });

  it('refuses unknown and empty values, naming each', () => {
    for (const value of ['lines,bogus', 'none', '', 'lines,', ['lines', '']]) {
      let error: unknown;
      try {
        parseV3Expand(value, PARTS);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ValidationFailedError);
      expect((error as ValidationFailedError).fieldProblems[0].field).toBe('expand');
    }
    expect(() => parseV3Expand('bogus', PARTS)).toThrow(/"bogus"/);
  });
});
