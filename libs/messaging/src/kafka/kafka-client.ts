import { Kafka, type LogEntry, logLevel, type SASLOptions } from 'kafkajs';
import { type ServiceLogger, SILENT_LOGGER } from '@erp/observability';

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';
export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

export interface KafkaConnectionOptions {
  /** Bootstrap servers, `host:port`. */
  brokers: string[];
  /** Shown in broker logs and quotas; the service name. */
  clientId: string;
  /** TLS to the brokers (managed clusters). Default false. */
  ssl?: boolean;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
  /** TCP connect timeout per broker, in ms. Default 3000. */
  connectionTimeoutMs?: number;
  /** Where kafkajs's own log lines go. Default: nowhere. */
  logger?: ServiceLogger;
  /** kafkajs's own log level. Default `warn`. */
  logLevel?: KafkaLogLevel;
}

const LEVELS: Record<KafkaLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

/** A kafkajs client whose log lines go to our logger rather than to stdout in kafkajs's format. */
export function createKafka(options: KafkaConnectionOptions): Kafka {
  const logger = options.logger ?? SILENT_LOGGER;
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    ssl: options.ssl ?? false,
    sasl: options.sasl as SASLOptions | undefined,
    connectionTimeout: options.connectionTimeoutMs ?? 3_000,
    // Client-level retries only cover connecting and metadata; the relay and the consumers retry
    // on their own schedule around them, so these stay short.
    retry: { initialRetryTime: 100, maxRetryTime: 2_000, retries: 5 },
    logLevel: LEVELS[options.logLevel ?? 'warn'],
    logCreator: () => (entry: LogEntry) => {
      const { message, ...extra } = entry.log;
      const line = `kafkajs ${entry.namespace}: ${message}${Object.keys(extra).length > 2 ? ` ${safeJson(extra)}` : ''}`;
      // Our producers limit retries on purpose (the relay's own backoff takes over, and a producer
      // that keeps failing is replaced): delivery is at-least-once with per-key order, and
      // kafkajs's warning about exactly-once on every start would only cry wolf.
      if (message.startsWith('Limiting retries for the idempotent producer')) logger.debug(line);
      else if (entry.level === logLevel.ERROR) logger.error(line);
      else if (entry.level === logLevel.WARN) logger.warn(line);
      else if (entry.level === logLevel.INFO) logger.log(line);
      else logger.debug(line);
    },
  });
}

/** Parses `KAFKA_BROKERS` ("host1:9092,host2:9092"). */
export function parseBrokers(value: string): string[] {
  return value
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker.length > 0);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '';
  }
}
