import { IsIn, IsOptional, IsString, Matches, MinLength, ValidateIf } from 'class-validator';
import { ServiceConfig } from '@erp/bootstrap';
import { type KafkaSaslMechanism, parseBrokers } from '../kafka/kafka-client';
import type { MessagingModuleOptions } from '../nest/messaging-options';

const BROKER_LIST = /^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*,?\s*$/;

/**
 * The variables of a service that publishes or consumes events: ServiceConfig plus Kafka.
 * A service's config class extends this one instead of ServiceConfig.
 */
export class KafkaServiceConfig extends ServiceConfig {
  /** Bootstrap servers, comma-separated `host:port` (`npm start` and the tests set it). */
  @IsString()
  @Matches(BROKER_LIST, { message: 'KAFKA_BROKERS must be a comma-separated list of host:port' })
  KAFKA_BROKERS!: string;

  /** Client id shown to the brokers. Default: the service name. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  KAFKA_CLIENT_ID?: string;

  /** Prefix of every topic name, for environments sharing one cluster (e.g. `staging.`). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'KAFKA_TOPIC_PREFIX may contain letters, digits, ".", "_" and "-" only' })
  KAFKA_TOPIC_PREFIX?: string;

  /** TLS to the brokers. */
  @IsOptional()
  @IsIn(['true', 'false'])
  KAFKA_SSL?: string;

  @IsOptional()
  @IsIn(['plain', 'scram-sha-256', 'scram-sha-512'])
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;

  @ValidateIf((config: KafkaServiceConfig) => config.KAFKA_SASL_MECHANISM !== undefined)
  @IsString()
  @MinLength(1)
  KAFKA_SASL_USERNAME?: string;

  @ValidateIf((config: KafkaServiceConfig) => config.KAFKA_SASL_MECHANISM !== undefined)
  @IsString()
  @MinLength(1)
  KAFKA_SASL_PASSWORD?: string;

  /**
   * Consumer groups this process leaves alone, comma-separated group ids (`*`: all): to stop a
   * consumer that is failing without stopping the service's API, or to run consumers in pods of
   * their own. Requests that need a record whose event is held back ask its owner meanwhile
   * (docs/cross-service-reads.md). Unset: every group runs.
   */
  @IsOptional()
  @Matches(/^\s*(\*|[A-Za-z0-9._-]+(\s*,\s*[A-Za-z0-9._-]+)*)\s*$/, { message: 'KAFKA_CONSUMER_GROUPS_OFF must be * or a comma-separated list of consumer group ids' })
  KAFKA_CONSUMER_GROUPS_OFF?: string;
}

/** MessagingModule options from the validated variables; `clientId` is the default client id. */
export function messagingOptionsFrom(
  config: KafkaServiceConfig,
  defaults: { clientId: string } & Partial<MessagingModuleOptions>,
): MessagingModuleOptions {
  const { clientId, ...rest } = defaults;
  return {
    ...rest,
    brokers: parseBrokers(config.KAFKA_BROKERS),
    clientId: config.KAFKA_CLIENT_ID ?? clientId,
    source: rest.source ?? clientId,
    topicPrefix: config.KAFKA_TOPIC_PREFIX ?? rest.topicPrefix,
    consumerGroupsOff: config.KAFKA_CONSUMER_GROUPS_OFF?.split(',').map((group) => group.trim()) ?? rest.consumerGroupsOff,
    ssl: config.KAFKA_SSL === 'true' || (rest.ssl ?? false),
    sasl:
      config.KAFKA_SASL_MECHANISM && config.KAFKA_SASL_USERNAME && config.KAFKA_SASL_PASSWORD
        ? { mechanism: config.KAFKA_SASL_MECHANISM, username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD }
        : rest.sasl,
  };
}
