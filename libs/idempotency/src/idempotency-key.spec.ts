import { fingerprintOf, keyProblem } from './idempotency-key';

describe('Idempotency-Key values', () => {
  it.each(['8e03978e-40d5-43e8-bc93-6894a57f9324', 'a', 'order 42 retry', '!~'])('takes %j', (key) => {
    expect(keyProblem(key)).toBeUndefined();
  });

  it.each([
    ['', 'must not be empty'],
    ['k'.repeat(256), 'at most 255 characters'],
    ['tab\there', 'visible ASCII'],
    ['ünïcode', 'visible ASCII'],
    [' leading', 'visible ASCII'],
  ])('refuses %j (%s)', (key, problem) => {
    expect(keyProblem(key)).toContain(problem);
  });

  it('refuses the header sent twice', () => {
    expect(keyProblem(['a', 'b'])).toContain('once');
  });
});

describe('fingerprintOf', () => {
  const facts = { method: 'POST', url: '/v1/customer', headers: { 'if-match': undefined, 'content-type': 'application/json' }, body: '{"name":"A"}' };

  it('is the same for the same request, whatever the order of the headers it names', () => {
    expect(fingerprintOf(facts)).toBe(fingerprintOf({ ...facts, headers: { 'content-type': 'application/json', 'if-match': undefined } }));
  });

  it.each([
    ['method', { method: 'PATCH' }],
    ['path', { url: '/v1/customer?x=1' }],
    ['If-Match', { headers: { ...facts.headers, 'if-match': '"1"' } }],
    ['body bytes', { body: '{"name": "A"}' }],
  ])('changes with the %s', (_what, change) => {
    expect(fingerprintOf({ ...facts, ...change })).not.toBe(fingerprintOf(facts));
  });
});
