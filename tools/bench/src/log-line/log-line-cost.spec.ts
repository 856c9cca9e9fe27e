import { logLineCostTable, runLogLineCostBench } from './log-line-cost.bench';

describe('bench:log-line at tiny size', () => {
  it('measures each variant, and writes them against the floor', () => {
    const result = runLogLineCostBench({ requests: 300, rounds: 3 });
    expect(Object.keys(result)).toEqual([
      'pino, no redaction, no company',
      'as shipped (createLogger, bindRequestLog)',
      'before (wildcard redact paths, a child per request for the company)',
    ]);
    for (const micros of Object.values(result)) expect(micros).toBeGreaterThan(0);
    const table = logLineCostTable(result);
    expect(table).toContain('| pino, no redaction, no company |');
    expect(table).toMatch(/\| pino, no redaction, no company \| \d+\.\d \| 1\.00× \|/);
    expect(table.split('\n')).toHaveLength(5);
  });
});
