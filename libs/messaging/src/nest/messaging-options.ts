import type { EventConsumerOptions } from '../consumer/event-consumer';
import type { KafkaConnectionOptions } from '../kafka/kafka-client';
import type { OutboxRelayOptions } from '../outbox/outbox-relay';

export type RelaySettings = Omit<OutboxRelayOptions, 'kafka' | 'database' | 'logger'>;
export type ConsumerSettings = Omit<
  EventConsumerOptions,
  'kafka' | 'dataSource' | 'groupId' | 'subscriptions' | 'topicPrefix' | 'logger'
>;

export interface MessagingModuleOptions extends Omit<KafkaConnectionOptions, 'logger'> {
  /** The envelope `source` of events this service adds to its outbox. Default: `clientId`. */
  source?: string;
  /** Deployment prefix of every topic name (`KAFKA_TOPIC_PREFIX`). Default none. */
  topicPrefix?: string;
  /** Outbox relay settings, or false for a service that publishes nothing. */
  relay?: RelaySettings | false;
  /** Settings every consumer group of this service gets. */
  consumers?: ConsumerSettings;
  /** Consumer groups this process does not run (`KAFKA_CONSUMER_GROUPS_OFF`); `*` is all. Default none. */
  consumerGroupsOff?: readonly string[];
  /** Register the `kafka` readiness check (needs HealthModule). Default true. */
  readinessCheck?: boolean;
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');
