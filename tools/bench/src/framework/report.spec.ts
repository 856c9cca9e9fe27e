import type { LoadMeasurement } from './load';
import { markdownReport, summaryReport } from './report';
import type { BenchResults } from './run-bench';
import type { ScenarioCase } from './scenario';

const measurement = (target: string): LoadMeasurement => ({
  target,
  requests: 10,
  rps: 5,
  p50Ms: 1,
  p99Ms: 2,
  meanMs: 1.5,
  errors: 0,
  non2xx: 0,
  bytesPerSecond: 0,
  durationSeconds: 2,
});

const results = (cases: ScenarioCase[]): BenchResults => ({
  startedAt: '2026-11-21T00:00:00Z',
  finishedAt: '2026-11-21T00:01:00Z',
  machine: { cpus: 2, cpuModel: 'test', memoryGiB: 4, node: 'v20', os: 'linux' },
  load: { connections: 1, durationSeconds: 1, warmupSeconds: 0, rounds: 1 },
  seed: 1,
  systemEnv: {},
  scenarios: [{ scenario: 's', title: 't', cases, targets: [] }],
});

/** The lines of the first table (the cases', before the target checks), each split into its cells. */
function firstTable(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const from = lines.findIndex((line) => line.startsWith('|'));
  const to = lines.findIndex((line, i) => i > from && !line.startsWith('|'));
  return lines.slice(from, to).map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()));
}

describe('markdownReport', () => {
  it.each([
    ['with ratios', { 'gateway/baseline': 0.5 }],
    ['without ratios (no empty column)', {}],
  ])('gives header, separator and every row the same number of cells, %s', (_name, ratios) => {
    const markdown = markdownReport(
      results([{ name: 'case 1', facts: {}, measurements: [measurement('gateway')], ratios, memory: { svc: { pid: 1, peakRssMiB: 100, lifetimePeakRssMiB: 120 } } }]),
    );
    const [header, separator, ...cases] = firstTable(markdown);
    expect(header).not.toContain('');
    expect(separator).toEqual(header.map(() => '---'));
    expect(cases).toHaveLength(1);
    for (const row of cases) expect(row).toHaveLength(header.length);
    expect(header).toEqual(['case', 'gateway req/s', 'gateway p50/p99 ms', 'gateway Node CPU ms/req', ...Object.keys(ratios), 'svc peak RSS MiB']);
  });
});

describe('summaryReport', () => {
  it('counts the targets each scenario met, lists every one not met, and links the full report', () => {
    const base = results([]);
    const target = (description: string, met: boolean) => ({ description, value: 2, op: '<=' as const, limit: 1.5, met });
    const summary = summaryReport(
      { ...base, scenarios: [
        { scenario: 'a', title: 'A', cases: [], targets: [target('a1', true), target('a2', true)] },
        { scenario: 'b', title: 'B', cases: [], targets: [target('b1', true), target('b2', false)] },
      ] },
      'docs/benchmark-latest-run.md',
    );
    expect(summary.split('\n')).toEqual(
      expect.arrayContaining(['| a | 2 of 2 | – |', '| b | 1 of 2 | **1** |', '| b | b2 | 2 | <= 1.5 |', 'Every case, figure and target of this run: [docs/benchmark-latest-run.md](docs/benchmark-latest-run.md).']),
    );
    expect(summary.split('\n')[0]).toMatch(/^Run 2026-11-21T00:00:00Z on 2 × test/);
  });
});
