import { containsNul, exceedsJsonDepth, MAX_JSON_DEPTH } from './create-service-app';

describe('exceedsJsonDepth', () => {
  it('counts nested arrays and objects', () => {
    expect(exceedsJsonDepth('[[[]]]', 3)).toBe(false);
    expect(exceedsJsonDepth('[[[[]]]]', 3)).toBe(true);
    expect(exceedsJsonDepth('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(JSON.stringify({ a: '[[[[[[{{{{', b: 'x\\"[[[[' }), 2)).toBe(false);
  });

  it('refuses the 10,000-deep body that overflowed the stack, and allows sibling structures', () => {
    expect(exceedsJsonDepth('['.repeat(10_000) + ']'.repeat(10_000), MAX_JSON_DEPTH)).toBe(true);
    expect(exceedsJsonDepth(JSON.stringify(Array.from({ length: 10_000 }, () => [{ a: [1] }])), MAX_JSON_DEPTH)).toBe(false);
  });
});

describe('containsNul', () => {
  it('finds U+0000 in strings and keys at any depth, and only there', () => {
    expect(containsNul({ description: 'a\u0000b' })).toBe(true);
    expect(containsNul({ lines: [{ description: 'x\u0000' }] })).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(containsNul({ description: 'a\\u0000b', n: 0, lines: [null, true, 1.5] })).toBe(false);
  });
});
