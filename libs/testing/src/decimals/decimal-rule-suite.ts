import { DECIMAL_RULE_CASES, decimalText } from '@erp/decimals';

/** A problem as `validateBodyShape` of `@erp/errors` reports it. */
interface Problem {
  field: string;
  code: string;
}

export interface DecimalRuleOptions {
  /** The field under test; its limits must be 12 digits before and 6 after the point (`quantity`). */
  field: string;
  /** The body-shape problems of a body whose `field` is `value` (and is otherwise valid). */
  problemsOf(value: unknown): Problem[];
}

/**
 * The one decimal rule (`@erp/decimals`) as a shared suite, run by every service against a DTO of
 * its own, so that no API can drift from it: each case of `DECIMAL_RULE_CASES` is accepted with the
 * exact text the repositories store, or refused at the field with 0002-InvalidValue.
 */
export function describeDecimalRule(options: DecimalRuleOptions): void {
  describe(`${options.field} follows the one decimal rule`, () => {
    it.each(DECIMAL_RULE_CASES.map((c) => [c.json, c.stored, c.why] as const))('%s -> %s (%s)', (json, stored) => {
      const value: unknown = JSON.parse(json);
      const problems = options.problemsOf(value).map((p) => ({ field: p.field, code: p.code }));
      if (stored === null) expect(problems).toEqual([{ field: options.field, code: '0002-InvalidValue' }]);
      else expect({ problems, stored: decimalText(value) }).toEqual({ problems: [], stored });
    });
  });
}
