import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { relative, resolve, sep } from 'node:path';
import { DATA_DIR, REPO_ROOT } from './paths';
import { runningStart } from './start/start-lock';

/**
 * `npm run reset`: removes the data directory of `npm start` (ERP_DATA_DIR, default `.data`) and
 * nothing else, asking nothing, so that the next `npm start` begins from nothing: a new cluster,
 * new dev keys (tokens signed before no longer verify), no attachments, the demo company seeded
 * again. Refused while an `npm start` runs on it. The directory also holds caches the tests keep
 * (Node's compile cache, the previous release's checkout); they are made again when next needed.
 */
async function main(): Promise<void> {
  const dataDir = resolve(DATA_DIR);
  refuseDangerous(dataDir);
  const running = await runningStart(dataDir);
  if (running) throw new Error(`npm start is running on ${dataDir} (pid ${running.pid}, ${running.url}): stop it first`);
  if (!existsSync(dataDir)) {
    process.stdout.write(`nothing to reset: ${dataDir} does not exist\n`);
    return;
  }
  await rm(dataDir, { recursive: true, force: true });
  process.stdout.write(`removed ${dataDir}: the next npm start begins from nothing\n`);
}

/** A data directory that holds the checkout, or is a home or the root, is no data directory. */
function refuseDangerous(dataDir: string): void {
  const holdsCheckout = !relative(dataDir, REPO_ROOT).startsWith('..');
  if (holdsCheckout || dataDir === resolve(homedir()) || dataDir === sep) {
    throw new Error(`refusing to remove ${dataDir}: ERP_DATA_DIR names the checkout, a home or the root, not a data directory`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`npm run reset: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
