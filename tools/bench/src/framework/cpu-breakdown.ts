import { round, type LoadMeasurement } from './load';
import type { ScenarioCase } from './scenario';

const fmt = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(2));

/**
 * A note table: each target's CPU per answered request, process by process, with the PostgreSQL
 * server and the load generator beside the Node processes. On one machine they all share the same
 * cores, so their sum, not the Node process's share alone, bounds a target's throughput: a service
 * whose statements cost the database more loses throughput that its own CPU does not show.
 */
export function cpuBreakdownNotes(cases: ScenarioCase[], processes: string[]): string[] {
  const rows = cases.flatMap((c) =>
    c.measurements.map((m: LoadMeasurement) => {
      const own = processes.map((p) => m.cpuMsPerRequest?.[p]);
      const all = [...own, m.databaseCpuMsPerRequest, m.loadGeneratorCpuMsPerRequest].filter((v): v is number => v !== undefined && Number.isFinite(v));
      return `| ${c.name} | ${m.target} | ${own.map(fmt).join(' | ')} | ${fmt(m.databaseCpuMsPerRequest)} | ${fmt(m.loadGeneratorCpuMsPerRequest)} | ${fmt(round(all.reduce((a, b) => a + b, 0)))} |`;
    }),
  );
  return [
    'CPU ms per answered request of every process while each target was loaded (medians over the rounds); the machine\'s cores are shared, so "all" bounds the throughput:',
    '',
    `| case | target | ${processes.join(' | ')} | PostgreSQL | load generator | all |`,
    `|${' --- |'.repeat(processes.length + 5)}`,
    ...rows,
  ];
}
