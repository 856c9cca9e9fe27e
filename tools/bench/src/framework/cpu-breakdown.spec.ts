import { cpuBreakdownNotes } from './cpu-breakdown';
import type { LoadMeasurement } from './load';

const measurement = (target: string, extra: Partial<LoadMeasurement>): LoadMeasurement => ({
  target,
  requests: 100,
  rps: 50,
  p50Ms: 1,
  p99Ms: 2,
  meanMs: 1,
  errors: 0,
  non2xx: 0,
  bytesPerSecond: 1,
  durationSeconds: 2,
  ...extra,
});

describe('cpuBreakdownNotes', () => {
  it('puts each target on a row: the processes named, PostgreSQL, the load generator and their sum', () => {
    const notes = cpuBreakdownNotes(
      [
        {
          name: '100k',
          facts: {},
          ratios: {},
          memory: {},
          measurements: [
            measurement('gateway', { cpuMsPerRequest: { 'customers-v1': 0.9, 'api-gateway': 0.6, 'customers-baseline': 0 }, databaseCpuMsPerRequest: 3.1, loadGeneratorCpuMsPerRequest: 0.4 }),
            measurement('baseline', { cpuMsPerRequest: { 'customers-baseline': 0.55 } }),
          ],
        },
      ],
      ['customers-v1', 'api-gateway', 'customers-baseline'],
    );
    expect(notes).toContain('| case | target | customers-v1 | api-gateway | customers-baseline | PostgreSQL | load generator | all |');
    expect(notes).toContain('| 100k | gateway | 0.90 | 0.60 | 0.00 | 3.10 | 0.40 | 5.00 |');
    // A figure not measured (a remote database, a process not running) is a dash, not a zero.
    expect(notes).toContain('| 100k | baseline | – | – | 0.55 | – | – | 0.55 |');
  });
});
