import { TOPICS } from '@erp/contracts';
import { type KafkaDevBroker, startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { DEV_BROKER_DEFAULT_PORT } from './system-ports';
import type { SystemOptions } from './system';

/** The in-memory Kafka dev broker (never production: see tools/kafka-dev-broker). */
export async function startDevBroker(options: SystemOptions, log: (line: string) => void): Promise<KafkaDevBroker> {
  const port = options.kafkaDevBrokerPort ?? (options.servicePorts === 'fixed' ? DEV_BROKER_DEFAULT_PORT : 0);
  log(`starting the Kafka dev broker (in-memory) on port ${port === 0 ? '(free)' : port}`);
  try {
    const prefix = options.env?.['KAFKA_TOPIC_PREFIX'] ?? process.env['KAFKA_TOPIC_PREFIX'] ?? '';
    return await startKafkaDevBroker({
      port,
      // Every topic of the contracts from the start, as a cluster's provisioned topics: a consumer
      // that subscribes before the topic's producer has sent anything (every start on the empty
      // in-memory broker) would otherwise retry, and kafkajs logs each try as an error.
      topics: Object.values(TOPICS).map((topic) => `${prefix}${topic}`),
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: (message) => log(`kafka-dev-broker: ${message}`),
        error: (message) => log(`kafka-dev-broker: ${message}`),
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `port ${port} is in use: set KAFKA_BROKERS to use the Kafka listening there, or KAFKA_DEV_BROKER_PORT for another port`,
        { cause: error },
      );
    }
    throw error;
  }
}
