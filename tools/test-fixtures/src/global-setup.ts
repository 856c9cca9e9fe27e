import { startWorkspaceFixtures } from './workspace-fixtures';

/** Starts the fixtures the whole run shares (see fixtures.ts) before any test file runs. */
export default async function globalSetup(): Promise<void> {
  // `npm test` started them once for every project's Jest run (with-test-fixtures.ts).
  if (process.env['TEST_FIXTURES_SHARED'] === '1') return assertSharedFixtures();
  await startWorkspaceFixtures();
}

/** The variables with-test-fixtures.ts exports; a run that says it shares fixtures must have them. */
function assertSharedFixtures(): void {
  const missing = ['TEST_DATABASE_SERVER_URL', 'TEST_KAFKA_BROKERS'].filter((name) => !process.env[name]);
  if (missing.length > 0)
    throw new Error(`TEST_FIXTURES_SHARED=1 but ${missing.join(' and ')} unset: run through with-test-fixtures.ts`);
}
