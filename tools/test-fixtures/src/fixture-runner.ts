export interface TestFixtureContext {
  /** The repository root (where `.data/` and tsconfig.base.json are). */
  rootDir: string;
  /** Fixture output; printed only when TEST_FIXTURES_LOG=1. */
  log: (line: string) => void;
}

export interface RunningTestFixture {
  /** Variables the test workers inherit, e.g. TEST_DATABASE_SERVER_URL. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Something the whole test run shares, started once in Jest's global setup. */
export interface TestFixture {
  name: string;
  start(context: TestFixtureContext): Promise<RunningTestFixture>;
}

interface StartedFixture extends RunningTestFixture {
  name: string;
}

const RUNNING = Symbol.for('@erp/testing:running-fixtures');
type FixtureHolder = { [RUNNING]?: StartedFixture[] };

/**
 * Starts the fixtures concurrently, exports their variables to `process.env` (which the Jest
 * workers inherit) and keeps them on `globalThis` for `stopTestFixtures`. If one fails, those
 * already started are stopped and the error names the fixture.
 */
export async function startTestFixtures(
  fixtures: readonly TestFixture[],
  context: TestFixtureContext,
): Promise<void> {
  const results = await Promise.allSettled(
    fixtures.map(async (fixture) => ({ name: fixture.name, ...(await fixture.start(context)) })),
  );
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failures = results.flatMap((result, index) =>
    result.status === 'rejected' ? [`${fixtures[index]?.name}: ${messageOf(result.reason)}`] : [],
  );
  if (failures.length > 0) {
    await stopAll(started);
    throw new Error(`Test fixtures failed to start:\n${failures.join('\n')}`);
  }
  for (const fixture of started) Object.assign(process.env, fixture.env);
  (globalThis as FixtureHolder)[RUNNING] = started;
}

/** Stops what `startTestFixtures` started, in reverse order. */
export async function stopTestFixtures(): Promise<void> {
  const holder = globalThis as FixtureHolder;
  const started = holder[RUNNING] ?? [];
  delete holder[RUNNING];
  const failures = await stopAll(started);
  if (failures.length > 0) throw new Error(`Test fixtures failed to stop:\n${failures.join('\n')}`);
}

async function stopAll(started: StartedFixture[]): Promise<string[]> {
  const failures: string[] = [];
  for (const fixture of [...started].reverse()) {
    await fixture.stop().catch((error: unknown) => failures.push(`${fixture.name}: ${messageOf(error)}`));
  }
  return failures;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
