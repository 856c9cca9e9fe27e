import { spawn } from 'node:child_process';

import { stopTestFixtures } from './fixture-runner';
import { startWorkspaceFixtures } from './workspace-fixtures';

/**
 * `npm test`: starts the shared fixtures (PostgreSQL, the Kafka broker) once, runs the commands
 * given as arguments side by side with their variables, then stops them. Exits with the first
 * failing command's code, after every command has ended.
 *
 * Nx runs one Jest process per project, and each would otherwise start its own embedded PostgreSQL
 * (initdb and start-up, and its own migrated templates) in its global setup. With
 * TEST_FIXTURES_SHARED=1, global-setup.ts uses the variables exported here instead. `npx nx test
 * <project>` on its own still starts fixtures of its own.
 *
 * Why several commands: Nx starts first the tasks of the projects most others depend on, so in one
 * `nx run-many` the two whole-system projects (api-e2e, reliability: nothing depends on them, and
 * they are the longest tasks) would start last, after three minutes of libraries, and end the run
 * alone. Their own `nx run-many -t e2e` starts them at once.
 *
 * Usage: node -r @swc-node/register tools/test-fixtures/src/with-test-fixtures.ts '<command>' ['<command>' ...]
 */
async function main(): Promise<void> {
  const commands = process.argv.slice(2);
  if (commands.length === 0) throw new Error("usage: with-test-fixtures.ts '<command>' ['<command>' ...]");
  await startWorkspaceFixtures();
  let codes: number[];
  try {
    const env = { ...process.env, TEST_FIXTURES_SHARED: '1' };
    codes = await Promise.all(commands.map((command) => run(command, env)));
  } finally {
    await stopTestFixtures();
  }
  process.exit(codes.find((code) => code !== 0) ?? 0);
}

/** Runs a command line in a shell with inherited output; Ctrl-C reaches it (same process group). */
function run(command: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: 'inherit', env });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
