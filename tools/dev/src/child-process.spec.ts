import { lastErrorIn } from './child-process';

describe('lastErrorIn (the cause named when a process exits before it is ready)', () => {
  it("takes the last error line of pino's JSON: its err.message, else its msg", () => {
    const output = [
      JSON.stringify({ level: 30, msg: 'starting' }),
      JSON.stringify({ level: 50, msg: 'bootstrap failed', err: { message: 'listen EADDRINUSE: address already in use 0.0.0.0:3000' } }),
      JSON.stringify({ level: 30, msg: 'exiting' }),
    ].join('\n');
    expect(lastErrorIn(output)).toBe('listen EADDRINUSE: address already in use 0.0.0.0:3000');
    expect(lastErrorIn(JSON.stringify({ level: 60, msg: 'config: PORT must be a number' }))).toBe('config: PORT must be a number');
  });

  it('reads a pretty or plain line that says error, and nothing when none does', () => {
    expect(lastErrorIn('booting\nError: password authentication failed for user "erp_runtime"\n')).toBe('Error: password authentication failed for user "erp_runtime"');
    expect(lastErrorIn('booting\nlistening\n')).toBeUndefined();
  });
});
