import { negotiateAttachmentRepresentation as negotiate } from './content-negotiation';

describe('negotiateAttachmentRepresentation', () => {
  it.each([
    [undefined, 'text/plain'],
    ['', 'text/plain'],
    ['*/*', 'text/plain'],
    ['text/plain', 'text/plain'],
    ['text/*', 'text/plain'],
    ['application/json', 'application/json'],
    ['application/octet-stream', 'application/octet-stream'],
    ['application/*', 'application/json'],
    ['application/json, text/plain, */*', 'text/plain'],
    ['text/plain;q=0.5, application/json', 'application/json'],
    ['application/json;q=0.2, application/octet-stream;q=0.9', 'application/octet-stream'],
    ['*/*;q=0.1, application/octet-stream', 'application/octet-stream'],
    ['APPLICATION/JSON', 'application/json'],
    [['application/json', 'text/plain;q=0.1'], 'application/json'],
  ])('answers %j with %s', (accept, expected) => {
    expect(negotiate(accept)).toBe(expected);
  });

  it.each(['image/png', 'text/html', 'text/plain;q=0', 'application/xml, text/csv'])('finds nothing acceptable in %j (406)', (accept) => {
    expect(negotiate(accept)).toBeUndefined();
  });

  it('lets a specific q=0 exclude a type that a wildcard would allow', () => {
    expect(negotiate('*/*, text/plain;q=0')).toBe('application/json');
  });
});
