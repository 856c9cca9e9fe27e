import { startTestFixtures } from './fixture-runner';
import { registerWorkspaceAliases } from './workspace-aliases';
import { WORKSPACE_ROOT } from './workspace-root';

/**
 * Starts the workspace's fixtures (fixtures.ts) and exports their variables to `process.env`: for
 * Jest's global setup, and for with-test-fixtures.ts, which starts them once for a whole `npm test`.
 */
export async function startWorkspaceFixtures(): Promise<void> {
  registerWorkspaceAliases(WORKSPACE_ROOT);
  // Loaded only now: the fixtures import `@erp/*` projects, which need the aliases.
  const { TEST_FIXTURES } = await import('./fixtures');
  const verbose = process.env['TEST_FIXTURES_LOG'] === '1';
  await startTestFixtures(TEST_FIXTURES, {
    rootDir: WORKSPACE_ROOT,
    log: verbose ? (line) => process.stderr.write(`[fixtures] ${line}\n`) : () => undefined,
  });
}
