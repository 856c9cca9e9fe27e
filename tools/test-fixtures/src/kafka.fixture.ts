import { startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { Kafka, logLevel } from 'kafkajs';

import type { TestFixture } from './fixture-runner';

/**
 * The Kafka cluster tests use, exported as TEST_KAFKA_BROKERS (comma-separated host:port).
 * KAFKA_BROKERS set: that cluster (it must answer; TEST_KAFKA_EXTERNAL=1 tells tests so).
 * Otherwise: one in-memory dev broker on a free port of 127.0.0.1 for the whole run. Tests keep
 * out of each other's way with their own topic prefix and consumer groups, not their own broker.
 */
export const kafkaFixture: TestFixture = {
  name: 'kafka',
  async start({ log }) {
    const external = process.env['KAFKA_BROKERS'];
    if (external) {
      await assertAnswers(external);
      log(`kafka: using KAFKA_BROKERS ${external}`);
      return { env: { TEST_KAFKA_BROKERS: external, TEST_KAFKA_EXTERNAL: '1' }, stop: async () => undefined };
    }
    const broker = await startKafkaDevBroker({
      port: 0,
      logger: {
        debug: () => undefined,
        info: (message) => log(`kafka-dev-broker: ${message}`),
        warn: (message, context) => log(`kafka-dev-broker: ${message} ${JSON.stringify(context ?? {})}`),
        error: (message, context) => log(`kafka-dev-broker: ${message} ${JSON.stringify(context ?? {})}`),
      },
    });
    log(`kafka: dev broker at ${broker.brokers.join(',')}`);
    return {
      env: { TEST_KAFKA_BROKERS: broker.brokers.join(','), TEST_KAFKA_EXTERNAL: '0' },
      stop: () => broker.stop(),
    };
  },
};

async function assertAnswers(brokers: string): Promise<void> {
  const kafka = new Kafka({
    clientId: 'erp-test-fixture',
    brokers: brokers.split(',').map((broker) => broker.trim()),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3_000,
    retry: { retries: 2, initialRetryTime: 200 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (error) {
    throw new Error(
      `KAFKA_BROKERS is set but Kafka at ${brokers} does not answer (${error instanceof Error ? error.message : String(error)}). ` +
        'Start it, fix the list, or unset KAFKA_BROKERS to use the in-memory dev broker.',
      { cause: error },
    );
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
