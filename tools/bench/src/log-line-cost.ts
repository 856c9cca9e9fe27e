import { logLineCostTable, runLogLineCostBench } from './log-line/log-line-cost.bench';

/**
 * `npm run bench:log-line [-- --requests=200000 --rounds=5]`
 * What logging costs a service per request (its child logger, the company, the request line), as
 * shipped, as before, and as bare pino does. Prints JSON, then a markdown table.
 */
function main(): void {
  const args = new Map(process.argv.slice(2).map((arg) => /^--([a-z]+)=(\d+)$/.exec(arg) ?? ['', arg, '']).map(([, name, value]) => [name, value]));
  for (const name of args.keys()) if (name !== 'requests' && name !== 'rounds') throw new Error(`unknown argument ${name} (expected --requests=N, --rounds=N)`);
  const result = runLogLineCostBench({ requests: Number(args.get('requests') ?? 200_000), rounds: Number(args.get('rounds') ?? 5) });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n\n${logLineCostTable(result)}\n`);
}

main();
