/**
 * The rule's examples as data, for tests: the lib's own unit test, each service's unit test of its
 * DTOs and the end-to-end test that sends them to every API (apps/api-e2e/src/decimals.e2e-spec.ts)
 * all read this one table, so the APIs are held to the same answers.
 *
 * `json` is the value's JSON text as a client writes it in a body; `stored` is the exact decimal the
 * API keeps (canonical text), or null when the value is refused (400). Every value is positive and,
 * when accepted, within 12 digits before and 6 after the point: the limits of `quantity`, which
 * supplier invoice lines and sales order lines share, so that only the notation decides.
 */
export interface DecimalRuleCase {
  json: string;
  stored: string | null;
  why: string;
}

export const QUANTITY_LIMITS_OF_THE_CASES = { maxIntegerDigits: 12, maxScale: 6 } as const;

export const DECIMAL_RULE_CASES: readonly DecimalRuleCase[] = [
  { json: '"12.50"', stored: '12.5', why: 'a decimal string' },
  { json: '"7"', stored: '7', why: 'an integer string' },
  { json: '"0.000001"', stored: '0.000001', why: 'the smallest step of 6 decimals' },
  { json: '"007.50"', stored: '7.5', why: 'leading zeros are digits' },
  { json: '"999999999999.999999"', stored: '999999999999.999999', why: '18 digits, exact as a string' },
  { json: '12.5', stored: '12.5', why: 'a JSON number' },
  { json: '0.1', stored: '0.1', why: 'a JSON number is taken by its shortest text, not its binary value' },
  { json: '123456789012.345', stored: '123456789012.345', why: 'a JSON number of 15 significant digits' },
  { json: '1e3', stored: '1000', why: 'exponent notation is JSON number syntax: the number 1000 arrives' },
  { json: '1E-6', stored: '0.000001', why: 'the same for a small JSON number' },
  { json: '"1e3"', stored: null, why: 'a string in exponent notation' },
  { json: '"1E-6"', stored: null, why: 'a string in exponent notation' },
  { json: '".5"', stored: null, why: 'a string without a digit before the point' },
  { json: '"5."', stored: null, why: 'a string without a digit after the point' },
  { json: '"+5"', stored: null, why: 'a plus sign' },
  { json: '" 12.50 "', stored: null, why: 'spaces around the digits' },
  { json: '"12,50"', stored: null, why: 'a decimal comma' },
  { json: '"1 000"', stored: null, why: 'a thousands separator' },
  { json: '"0x10"', stored: null, why: 'hexadecimal' },
  { json: '"NaN"', stored: null, why: 'not a number' },
  { json: '"Infinity"', stored: null, why: 'not finite' },
  { json: '""', stored: null, why: 'empty' },
  { json: '"١٢"', stored: null, why: 'digits other than 0-9' },
  { json: '"12.5\\n"', stored: null, why: 'a trailing line break' },
  { json: 'true', stored: null, why: 'a boolean' },
  { json: '[12]', stored: null, why: 'an array' },
  { json: '0.30000000000000004', stored: null, why: 'a JSON number of 17 significant digits' },
  { json: '1234567890123456', stored: null, why: 'a JSON number of 16 significant digits' },
  { json: '100000000000000001', stored: null, why: 'a JSON number whose last digit a double loses' },
  { json: '"1.0000001"', stored: null, why: 'more than 6 decimals' },
  { json: '"1234567890123"', stored: null, why: 'more than 12 digits before the point' },
];
