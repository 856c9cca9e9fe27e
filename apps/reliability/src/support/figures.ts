import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Measured figures of a run, printed and written to test-output/reliability/<name>.json. */
export function writeFigures(name: string, figures: Record<string, unknown>): void {
  const dir = join(__dirname, '..', '..', '..', '..', 'test-output', 'reliability');
  mkdirSync(dir, { recursive: true });
  const text = JSON.stringify({ full: process.env['RELIABILITY_FULL'] === '1', ...figures }, null, 2);
  writeFileSync(join(dir, `${name}.json`), text);
  console.log(`reliability figures (${name}):\n${text}`);
}
