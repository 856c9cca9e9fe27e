import { ApiError } from '@erp/errors';
import { formatEtag, ifMatchAllows, parseIfMatch, requireIfMatch, versionsForUpdate } from './etag';

describe('formatEtag', () => {
  it('quotes the version as a strong tag', () => {
    expect(formatEtag(42)).toBe('"42"');
    expect(formatEtag('17')).toBe('"17"');
  });

  it('keeps bigint versions exact', () => {
    expect(formatEtag(9007199254740993n)).toBe('"9007199254740993"');
  });

  it('round-trips through parseIfMatch', () => {
    expect(parseIfMatch(formatEtag(123))).toEqual({ any: false, versions: ['123'] });
  });
});

describe('parseIfMatch', () => {
  it.each([undefined, '', '   '])('treats %p as no condition', (header) => {
    expect(parseIfMatch(header)).toBeUndefined();
  });

  it.each(['*', ' * '])('reads %p as "any version"', (header) => {
    expect(parseIfMatch(header)).toEqual({ any: true });
  });

  it('reads a single strong tag', () => {
    expect(parseIfMatch('"5"')).toEqual({ any: false, versions: ['5'] });
  });

  it('reads every tag of a list', () => {
    expect(parseIfMatch('"5", "6" ,"7"')).toEqual({ any: false, versions: ['5', '6', '7'] });
  });

  it('reads repeated headers as one list', () => {
    expect(parseIfMatch(['"5"', '"6", "7"'])).toEqual({ any: false, versions: ['5', '6', '7'] });
  });

  it('drops weak tags, because If-Match compares strongly', () => {
    expect(parseIfMatch('W/"5", "6"')).toEqual({ any: false, versions: ['6'] });
  });

  it('leaves no version when every tag is weak', () => {
    expect(parseIfMatch('W/"5"')).toEqual({ any: false, versions: [] });
  });

  it('accepts an unquoted value as a tag (v1 clients send timeStamp as it is)', () => {
    expect(parseIfMatch('12345')).toEqual({ any: false, versions: ['12345'] });
  });

  it('skips empty list members', () => {
    expect(parseIfMatch('"5",,')).toEqual({ any: false, versions: ['5'] });
  });
});

describe('requireIfMatch', () => {
  it.each([undefined, '', '  '])('answers 428 Precondition Required for %p', (header) => {
    let thrown: unknown;
    try {
      requireIfMatch(header);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(428);
    expect((thrown as ApiError).fault).toBe('PreconditionRequired');
  });

  it('returns the parsed condition when the header is present', () => {
    expect(requireIfMatch('"9"')).toEqual({ any: false, versions: ['9'] });
    expect(requireIfMatch('*')).toEqual({ any: true });
  });
});

describe('versionsForUpdate', () => {
  it('is null ("any version") for * and for no condition', () => {
    expect(versionsForUpdate({ any: true })).toBeNull();
    expect(versionsForUpdate(undefined)).toBeNull();
  });

  it('keeps only numeric tags, so nothing malformed reaches SQL', () => {
    expect(versionsForUpdate({ any: false, versions: ['12', 'abc', '1e3', '-4', '', '13'] })).toEqual([
      '12',
      '13',
    ]);
  });

  it('drops tags longer than a bigint', () => {
    expect(versionsForUpdate({ any: false, versions: ['9'.repeat(19), '1'.repeat(20)] })).toEqual([
      '9'.repeat(19),
    ]);
  });

  it('gives an empty list (matches nothing, so 412) when no tag is usable', () => {
    expect(versionsForUpdate(parseIfMatch('W/"5", "x"'))).toEqual([]);
  });
});

describe('ifMatchAllows', () => {
  it('allows any version without a condition or with *', () => {
    expect(ifMatchAllows(undefined, '5')).toBe(true);
    expect(ifMatchAllows({ any: true }, '5')).toBe(true);
  });

  it('allows a listed version', () => {
    expect(ifMatchAllows(parseIfMatch('"4", "5"'), '5')).toBe(true);
  });

  it('refuses a stale version', () => {
    expect(ifMatchAllows(parseIfMatch('"4"'), '5')).toBe(false);
  });

  it('never matches a weak tag, even of the current version', () => {
    expect(ifMatchAllows(parseIfMatch('W/"5"'), '5')).toBe(false);
  });
});
