import { spawn } from 'node:child_process';

import { stopTestFixtures } from './fixture-runner';
import { startWorkspaceFixtures } from './workspace-fixtures';

/**
 * `npm test`: starts the shared fixtures (PostgreSQL, the Kafka broker) once, runs the command
 * given after it (`nx run-many ...`) with their variables, then stops them.
 *
 * Nx runs one Jest process per project, and each would otherwise start its own embedded PostgreSQL
 * (initdb and start-up, and its own migrated templates) in its global setup. With
 * TEST_FIXTURES_SHARED=1, global-setup.ts uses the variables exported here instead. `npx nx test
 * <project>` on its own still starts fixtures of its own.
 *
 * Usage: node -r @swc-node/register tools/test-fixtures/src/with-test-fixtures.ts <command> [args...]
 */
async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command) throw new Error('usage: with-test-fixtures.ts <command> [args...]');
  await startWorkspaceFixtures();
  let exitCode: number;
  try {
    exitCode = await run(command, args, { ...process.env, TEST_FIXTURES_SHARED: '1' });
  } finally {
    await stopTestFixtures();
  }
  process.exit(exitCode);
}

/** Runs the command with inherited output; Ctrl-C reaches it (same process group), and we wait. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
