import type { TestFixture } from './fixture-runner';
import { postgresFixture } from './postgres.fixture';

/**
 * Every shared fixture, started together before the first test file and stopped after the last.
 * Adding one (e.g. the Kafka dev broker, exporting TEST_KAFKA_BROKERS) is one `TestFixture`
 * object in its own `<name>.fixture.ts` and one entry here.
 */
export const TEST_FIXTURES: readonly TestFixture[] = [postgresFixture];
