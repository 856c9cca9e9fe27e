import { startTestFixtures } from './fixture-runner';
import { registerWorkspaceAliases } from './workspace-aliases';
import { WORKSPACE_ROOT } from './workspace-root';

/** Starts the fixtures the whole run shares (see fixtures.ts) before any test file runs. */
export default async function globalSetup(): Promise<void> {
  registerWorkspaceAliases(WORKSPACE_ROOT);
  // Loaded only now: the fixtures import `@erp/*` projects, which need the aliases.
  const { TEST_FIXTURES } = await import('./fixtures');
  const verbose = process.env['TEST_FIXTURES_LOG'] === '1';
  await startTestFixtures(TEST_FIXTURES, {
    rootDir: WORKSPACE_ROOT,
    log: verbose ? (line) => process.stderr.write(`[fixtures] ${line}\n`) : () => undefined,
  });
}
