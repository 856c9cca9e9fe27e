import { readFileSync, writeFileSync } from 'node:fs';
import type { LoadMeasurement } from './load';
import type { BenchResults } from './run-bench';

const MIB = 1024 * 1024;

const START = '<!-- bench-results:start -->';
const END = '<!-- bench-results:end -->';

const fmt = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);

/** The results as markdown: the machine, one table of every case, and the target checks. */
export function markdownReport(results: BenchResults): string {
  const m = results.machine;
  const lines = [
    `Run ${results.startedAt} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; ` +
      `${results.load.connections} connections, ${results.load.durationSeconds} s per target and case in ` +
      `${results.load.rounds} alternating rounds (medians) after ${results.load.warmupSeconds} s warm-up, seed ${results.seed}` +
      (Object.keys(results.systemEnv).length ? `; system env ${JSON.stringify(results.systemEnv)}` : '') +
      '.',
    '',
  ];
  for (const scenario of results.scenarios) {
    lines.push(`### ${scenario.scenario}: \`${scenario.title}\``, '');
    const targets = [...new Set(scenario.cases.flatMap((c) => c.measurements.map((x) => x.target)))];
    const processes = [...new Set(scenario.cases.flatMap((c) => Object.keys(c.memory)))];
    const ratios = [...new Set(scenario.cases.flatMap((c) => Object.keys(c.ratios)))];
    const unit = scenario.rate ?? 'req/s';
    const rate = (x: LoadMeasurement | undefined) => (unit === 'MiB/s' ? fmt(x && x.bytesPerSecond / MIB, 1) : fmt(x?.rps));
    // Built as a list: a scenario without ratios (webhook latency) must not get an empty column.
    const header = [
      'case',
      ...targets.flatMap((t) => [`${t} ${unit}`, `${t} p50/p99 ms`, `${t} Node CPU ms/req`]),
      ...ratios,
      ...processes.map((p) => `${p} peak RSS MiB`),
    ];
    lines.push(`| ${header.join(' | ')} |`, `|${' --- |'.repeat(header.length)}`);
    for (const c of scenario.cases) {
      const cells = [c.name];
      for (const t of targets) {
        const x = c.measurements.find((y) => y.target === t);
        cells.push(rate(x), !x ? '–' : x.rps > 0 ? `${x.p50Ms} / ${x.p99Ms}` : 'no answer in time');
        const cpu = Object.values(x?.cpuMsPerRequest ?? {}).filter((v) => Number.isFinite(v));
        cells.push(cpu.length ? fmt(cpu.reduce((a, b) => a + b, 0), 2) : '–');
      }
      for (const key of ratios) {
        const ratio = c.ratios[key];
        cells.push(ratio !== undefined && Number.isFinite(ratio) ? `${fmt(ratio, 2)}×` : '–');
      }
      for (const p of processes) cells.push(fmt(c.memory[p]?.peakRssMiB));
      lines.push(`| ${cells.join(' | ')} |`);
    }
    if (scenario.notes?.length) lines.push('', ...scenario.notes);
    if (scenario.targets.length > 0) {
      lines.push('', '| target | value | limit | met |', '| --- | --- | --- | --- |');
      for (const t of scenario.targets) lines.push(`| ${t.description} | ${t.value} | ${t.op} ${t.limit} | ${t.met ? 'yes' : '**no**'} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * The run in brief, for BENCHMARKS.md: the machine, each scenario's targets met, and every target
 * not met with its figure. Every figure of the run is in the full report (`markdownReport`), which
 * the bench writes to `fullReportLink`.
 */
export function summaryReport(results: BenchResults, fullReportLink: string): string {
  const machineLine = markdownReport({ ...results, scenarios: [] }).split('\n')[0];
  const lines = [machineLine, '', '| scenario | targets met | not met |', '| --- | --- | --- |'];
  for (const s of results.scenarios) {
    const missed = s.targets.filter((t) => !t.met).length;
    lines.push(`| ${s.scenario} | ${s.targets.length - missed} of ${s.targets.length} | ${missed === 0 ? '–' : `**${missed}**`} |`);
  }
  const missed = results.scenarios.flatMap((s) => s.targets.filter((t) => !t.met).map((t) => ({ scenario: s.scenario, t })));
  if (missed.length > 0) {
    lines.push('', 'Not met:', '', '| scenario | target | value | limit |', '| --- | --- | --- | --- |');
    for (const { scenario, t } of missed) lines.push(`| ${scenario} | ${t.description} | ${t.value} | ${t.op} ${t.limit} |`);
  }
  lines.push('', `Every case, figure and target of this run: [${fullReportLink}](${fullReportLink}).`);
  return lines.join('\n');
}

export function writeResults(results: BenchResults, jsonPath: string, markdownPath: string): string {
  const markdown = markdownReport(results);
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(markdownPath, `${markdown}\n`);
  return markdown;
}

/** Replaces the text between the result markers of BENCHMARKS.md (nothing else in the file). */
export function updateBenchmarksDoc(docPath: string, markdown: string): boolean {
  const doc = readFileSync(docPath, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) return false;
  writeFileSync(docPath, `${doc.slice(0, start + START.length)}\n${markdown}\n${doc.slice(end)}`);
  return true;
}
