import { ifNoneMatchMatches } from './if-none-match';

describe('ifNoneMatchMatches (conditional GET, weak comparison)', () => {
  it.each([
    ['"7"', true],
    ['W/"7"', true],
    ['"6", "7"', true],
    ['*', true],
    [['"1"', '"7"'], true],
    ['"6"', false],
    ['"70"', false],
    ['7', false],
    ['', false],
    [undefined, false],
  ])('%j against "7" -> %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, '"7"')).toBe(expected);
  });
});
