import { readFileSync, writeFileSync } from 'node:fs';
import { type CpuProfile, stageBreakdown } from './profile/cpu-profile-stages';

/**
 * `npm run bench:profile-stages -- <file.cpuprofile> [--requests=N] [--folded=out.folded]`
 *
 * A process's CPU by stage of a request (authentication, validation, tenant binding, database
 * driver, logging, metrics, tracing, proxy, ...) from the profile `node --cpu-prof` wrote (run the
 * bench with `ERP_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"`). Start-up (module loading and
 * compiling) is left out. With `--requests`, the number of requests the process served while
 * profiled, each stage also in µs of CPU per request. `--folded` writes the folded stacks that flame
 * graph tools read (speedscope, flamegraph.pl). A markdown table on stdout.
 */
function main(args: string[]): void {
  const file = args.find((arg) => !arg.startsWith('--'));
  const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (!file) throw new Error('usage: bench:profile-stages -- <file.cpuprofile> [--requests=N] [--folded=out.folded]');
  const requests = option('requests') === undefined ? undefined : Number(option('requests'));
  if (requests !== undefined && !(requests > 0)) throw new Error('--requests must be a positive number');

  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const startUp = [{ stage: 'start-up', url: /\/node_modules\/(@swc-node|@swc|typescript|pirates)\/|^node:internal\/modules/ }];
  const breakdown = stageBreakdown(profile, undefined, startUp);
  const folded = option('folded');
  if (folded) writeFileSync(folded, `${breakdown.folded.join('\n')}\n`);

  const perRequest = (ms: number) => (requests ? ` | ${Math.round((ms * 1000) / requests)}` : '');
  const lines = [
    `${file}: ${breakdown.busyMs} ms busy (start-up left out), ${breakdown.idleMs} ms idle${requests ? `, ${requests} requests` : ''}`,
    '',
    `| stage | CPU ms | share${requests ? ' | µs per request' : ''} |`,
    `| --- | --- | ---${requests ? ' | ---' : ''} |`,
    ...breakdown.stages.map((s) => `| ${s.stage} | ${s.ms} | ${(s.share * 100).toFixed(1)} %${perRequest(s.ms)} |`),
    `| all stages | ${breakdown.busyMs} | 100 %${perRequest(breakdown.busyMs)} |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
