import type { TestFixture } from './fixture-runner';
import { kafkaFixture } from './kafka.fixture';
import { postgresFixture } from './postgres.fixture';

/**
 * Every shared fixture, started together before the first test file and stopped after the last.
 * Adding one is one `TestFixture` object in its own `<name>.fixture.ts` and one entry here.
 */
export const TEST_FIXTURES: readonly TestFixture[] = [postgresFixture, kafkaFixture];
