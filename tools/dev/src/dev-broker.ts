import { type KafkaDevBroker, startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { DEV_BROKER_DEFAULT_PORT } from './system-ports';
import type { SystemOptions } from './system';

/** The in-memory Kafka dev broker (never production: see tools/kafka-dev-broker). */
export async function startDevBroker(options: SystemOptions, log: (line: string) => void): Promise<KafkaDevBroker> {
  const port = options.kafkaDevBrokerPort ?? (options.servicePorts === 'fixed' ? DEV_BROKER_DEFAULT_PORT : 0);
  log(`starting the Kafka dev broker (in-memory) on port ${port === 0 ? '(free)' : port}`);
  try {
    return await startKafkaDevBroker({
      port,
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
