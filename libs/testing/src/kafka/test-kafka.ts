import { randomBytes } from 'node:crypto';

/**
 * The Kafka bootstrap servers of this test run (TEST_KAFKA_BROKERS, set by the Jest global
 * setup): the in-memory dev broker, or the cluster KAFKA_BROKERS names.
 */
export function testKafkaBrokers(): string[] {
  const value = process.env['TEST_KAFKA_BROKERS'];
  if (!value) {
    throw new Error(
      'TEST_KAFKA_BROKERS is not set: run tests through the root Jest config, whose global setup ' +
        '(tools/test-fixtures/src/global-setup.ts) starts the Kafka dev broker.',
    );
  }
  return value
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
}

/** True when the run uses a real cluster (KAFKA_BROKERS was set) rather than the dev broker. */
export function usingExternalKafka(): boolean {
  return process.env['TEST_KAFKA_EXTERNAL'] === '1';
}

/**
 * A topic prefix of its own (`test.<name>.<random>.`), so test files sharing one cluster never
 * read each other's events, and a rerun against a real cluster starts from empty topics.
 */
export function testTopicPrefix(name: string): string {
  const cleaned = name.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return `test.${cleaned || 'kafka'}.${randomBytes(4).toString('hex')}.`;
}
