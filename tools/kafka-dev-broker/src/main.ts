// Runs the dev broker as a process: `node -r @swc-node/register tools/kafka-dev-broker/src/main.ts`.
import { consoleLogger } from './logger';
import { startKafkaDevBroker } from './kafka-dev-broker';

const DEFAULT_PORT = 9092;

function integerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  const broker = await startKafkaDevBroker({
    port: integerFromEnv('KAFKA_DEV_BROKER_PORT', DEFAULT_PORT),
    host: process.env.KAFKA_DEV_BROKER_HOST || undefined,
    defaultPartitions: integerFromEnv('KAFKA_DEV_BROKER_PARTITIONS', 3),
    logger: consoleLogger,
  });
  consoleLogger.info(`Kafka dev broker (in-memory, not for production) at ${broker.brokers.join(',')}`);

  const shutdown = (signal: NodeJS.Signals): void => {
    consoleLogger.info(`${signal} received, stopping`);
    broker.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        consoleLogger.error('stop failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  consoleLogger.error('could not start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
