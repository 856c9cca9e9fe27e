import fc from 'fast-check';
import { parseV3DateTime } from './v3-date-time';

const iso = (value: string) => parseV3DateTime(value)?.toISOString();

describe('parseV3DateTime', () => {
  it('reads a timestamp without an offset as UTC', () => {
    expect(iso('2026-04-21T10:15:00')).toBe('2026-04-21T10:15:00.000Z');
    expect(iso('2026-04-21T10:15')).toBe('2026-04-21T10:15:00.000Z');
    expect(iso('2026-04-21')).toBe('2026-04-21T00:00:00.000Z');
  });

  it('applies an explicit offset', () => {
    expect(iso('2026-04-21T10:15:00Z')).toBe('2026-04-21T10:15:00.000Z');
    expect(iso('2026-04-21T10:15:00+02:00')).toBe('2026-04-21T08:15:00.000Z');
    expect(iso('2026-04-21T10:15:00.5-0130')).toBe('2026-04-21T11:45:00.500Z');
  });

  it('reads a + that a URL query turned into a space as +', () => {
    expect(iso('2026-04-21T10:15:00 02:00')).toBe('2026-04-21T08:15:00.000Z');
  });

  it('keeps milliseconds and truncates finer fractions', () => {
    expect(iso('2026-04-21T10:15:00.123456Z')).toBe('2026-04-21T10:15:00.123Z');
  });

  it.each(['2026-02-30', '2026-13-01', '2026-04-21T25:00:00', '2026-04-21T10:60', '21.04.2026', 'yesterday', '', '2026-04-21T10:15:00+15:00', '2026-04-21T10:15:00+02'])(
    'refuses %j',
    (value) => {
      expect(parseV3DateTime(value)).toBeUndefined();
    },
  );

  it('refuses an offset that carries the instant out of the years 1 to 9999 (PostgreSQL cannot store it), keeps the edges', () => {
    expect(parseV3DateTime('9999-12-31T23:00:00-14:00')).toBeUndefined();
    expect(parseV3DateTime('0001-01-01T00:30:00+01:00')).toBeUndefined();
    expect(iso('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59.000Z');
    expect(iso('9999-12-31T23:00:00+14:00')).toBe('9999-12-31T09:00:00.000Z');
  });

  it('round-trips every instant it renders (UTC with milliseconds and Z)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        expect(parseV3DateTime(date.toISOString())?.getTime()).toBe(date.getTime());
      }),
    );
  });
});
