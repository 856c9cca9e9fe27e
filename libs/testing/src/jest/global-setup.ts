import type { GlobalConfig } from 'jest';

import { startTestFixtures } from './fixture-runner';
import { registerWorkspaceAliases } from './workspace-aliases';

/** Starts the fixtures the whole run shares (see fixtures.ts) before any test file runs. */
export default async function globalSetup(globalConfig: GlobalConfig): Promise<void> {
  registerWorkspaceAliases(globalConfig.rootDir);
  // Loaded only now: the fixtures import `@erp/*` libs, which need the aliases.
  const { TEST_FIXTURES } = await import('./fixtures');
  const verbose = process.env['TEST_FIXTURES_LOG'] === '1';
  await startTestFixtures(TEST_FIXTURES, {
    rootDir: globalConfig.rootDir,
    log: verbose ? (line) => process.stderr.write(`[fixtures] ${line}\n`) : () => undefined,
  });
}
