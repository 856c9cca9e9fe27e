import { ApiError } from '@erp/errors';
import { parseV1DateTimeFilter } from './v1-date-filter';

const NAME = 'lastModifiedDateTime';
const CONDITION = 'lastModifiedDateTimeCondition';

function failureOf(query: Record<string, string | string[] | undefined>, name = NAME): ApiError {
  try {
    parseV1DateTimeFilter(query, name);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('parseV1DateTimeFilter', () => {
  it('is undefined when the filter is absent', () => {
    expect(parseV1DateTimeFilter({}, NAME)).toBeUndefined();
  });

  it('defaults the condition to >=', () => {
    expect(parseV1DateTimeFilter({ [NAME]: '2026-04-21T10:15:00' }, NAME)).toEqual({
      operator: '>=',
      value: '2026-04-21T10:15:00.000Z',
    });
  });

  it.each(['>', '>=', '<', '<=', '='])('accepts the %s condition', (operator) => {
    expect(
      parseV1DateTimeFilter({ [NAME]: '2026-04-21T10:15:00', [CONDITION]: operator }, NAME)?.operator,
    ).toBe(operator);
  });

  it('reads a timestamp without zone as UTC', () => {
    const filter = parseV1DateTimeFilter({ [NAME]: '2026-01-31T23:59:59.123' }, NAME);
    expect(filter?.value).toBe('2026-01-31T23:59:59.123Z');
  });

  it.each([
    ['a date only', '2026-04-21', '2026-04-21T00:00:00.000Z'],
    ['hours and minutes', '2026-04-21T10:15', '2026-04-21T10:15:00.000Z'],
    ['a space instead of T', '2026-04-21 10:15:30', '2026-04-21T10:15:30.000Z'],
    ['a short fraction', '2026-04-21T10:15:30.5', '2026-04-21T10:15:30.500Z'],
    ['a microsecond fraction', '2026-04-21T10:15:30.123456', '2026-04-21T10:15:30.123Z'],
    ['a leap day', '2024-02-29T00:00:00', '2024-02-29T00:00:00.000Z'],
    ['surrounding spaces', ' 2026-04-21T10:15:00 ', '2026-04-21T10:15:00.000Z'],
  ])('accepts %s', (_label, value, expected) => {
    expect(parseV1DateTimeFilter({ [NAME]: value }, NAME)?.value).toBe(expected);
  });

  it.each([
    ['a day that does not exist', '2026-02-30'],
    ['29 February outside a leap year', '2026-02-29T00:00:00'],
    ['31 April', '2026-04-31'],
    ['month 13', '2026-13-01'],
    ['hour 25', '2026-04-21T25:00'],
    ['hour 24', '2026-04-21T24:00:00'],
    ['minute 60', '2026-04-21T10:60'],
    ['second 60', '2026-04-21T10:15:60'],
    ['garbage', 'yesterday'],
    ['an empty value', ''],
    ['a Unix timestamp', '1776766500'],
    ['a timestamp with a Z zone', '2026-04-21T10:15:00Z'],
    ['a timestamp with an offset', '2026-04-21T10:15:00+02:00'],
  ])('answers 400 naming the parameter for %s', (_label, value) => {
    const error = failureOf({ [NAME]: value });
    expect(error.status).toBe(400);
    expect(error.fieldProblems[0].field).toBe(NAME);
    expect(error.message).toContain(NAME);
  });

  it.each(['=>', '!=', '==', 'gt', '', '>>'])(
    'answers 400 naming the condition for the unknown operator %p',
    (operator) => {
      const error = failureOf({ [NAME]: '2026-04-21', [CONDITION]: operator });
      expect(error.status).toBe(400);
      expect(error.fieldProblems[0].field).toBe(CONDITION);
    },
  );

  it('checks the condition even when the value is absent', () => {
    expect(failureOf({ [CONDITION]: '~' }).fieldProblems[0].field).toBe(CONDITION);
  });

  it('answers 400 when the value is repeated', () => {
    const error = failureOf({ [NAME]: ['2026-04-21', '2026-04-22'] });
    expect(error.status).toBe(400);
    expect(error.fieldProblems[0].field).toBe(NAME);
  });

  it('answers 400 when the condition is repeated', () => {
    const error = failureOf({ [NAME]: '2026-04-21', [CONDITION]: ['>', '<'] });
    expect(error.status).toBe(400);
    expect(error.fieldProblems[0].field).toBe(CONDITION);
  });

  it('uses the parameter name it is given', () => {
    expect(failureOf({ createdDateTime: 'nope' }, 'createdDateTime').fieldProblems[0].field).toBe(
      'createdDateTime',
    );
  });
});
