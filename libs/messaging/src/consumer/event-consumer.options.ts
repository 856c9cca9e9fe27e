import type { Kafka } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import type { DomainEvent, EventType } from '@erp/contracts';
import type { BackoffOptions } from '@erp/database';
import type { MessagingLogger } from '../logger';
import type { DeadLetterSink } from './dead-letter';

export interface EventHandlerContext {
  /**
   * The transaction that also records the event as processed. Do every database write of the
   * handler through it: the writes and the record then commit (or roll back) together.
   */
  manager: EntityManager;
  /** The topic as the contracts name it (without a deployment prefix). */
  topic: string;
  partition: number;
  offset: string;
  /** 1 on the first try, 2 on the first retry, ... */
  attempt: number;
}

export interface EventSubscription<T extends EventType = EventType> {
  /** The topic as the contracts name it, e.g. `TOPICS.customers`. */
  topic: string;
  /** Called once per event; throw to have it retried (then dead-lettered). */
  handler(event: DomainEvent<T>, context: EventHandlerContext): Promise<void>;
  /**
   * The event types this handler wants. Others on the topic are acknowledged without calling it
   * (and without a processed_events row). Default: every type of the topic.
   */
  eventTypes?: readonly T[];
}

export interface EventConsumerOptions {
  kafka: Kafka;
  /** The service's DataSource: handler transactions and the processed_events table. */
  dataSource: DataSource;
  /** The consumer group, e.g. `sales-orders-v3.customer-snapshot`: the inbox's key, metrics and logs. */
  groupId: string;
  /**
   * The group joined on the cluster (before the deployment prefix), when it is not `groupId`: the
   * Nest transport gives each topic of a several-topic group a Kafka group of its own, so that a
   * backlog on one topic never waits in front of another's events, while they share one inbox.
   */
  kafkaGroupId?: string;
  /**
   * A cluster group (before the prefix) whose committed offsets a partition starts from when this
   * consumer's group has none yet: the group the topics were read in before `kafkaGroupId`
   * existed, so splitting a group does not read the topics' retained history again.
   */
  carryOffsetsFrom?: string;
  subscriptions: EventSubscription[];
  /**
   * Deployment prefix (`KAFKA_TOPIC_PREFIX`) of the topics and of the group name joined on the
   * cluster, so environments sharing a cluster never share a group. The inbox, metrics and logs
   * use `groupId` as given. Default none.
   */
  topicPrefix?: string;
  logger?: MessagingLogger;
  /** Handler attempts before the message is dead-lettered. Default 5. Failures because the database is unreachable do not count. */
  maxAttempts?: number;
  /** Pause between attempts. Default 200 ms doubling to 5 s (about 3 s for 5 attempts). */
  retry?: BackoffOptions;
  /** Where parked messages go. Default: `<topic>.dlq` on the same cluster. */
  deadLetterSink?: DeadLetterSink;
  /** Maps a (prefixed) source topic to its dead-letter topic. Default `<topic>.dlq`. */
  deadLetterTopic?: (topic: string) => string;
  /** Where a new group starts: true (default) reads the topic's whole retained history. */
  fromBeginning?: boolean;
  /** kafkajs group timings; see the kafkajs docs. Defaults 30 s / 3 s / 60 s. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  rebalanceTimeoutMs?: number;
  /** Longest a fetch waits for new messages. Default 1000 ms (kafkajs: 5 s). */
  maxWaitTimeInMs?: number;
  /** Partitions handled in parallel (order holds within each). Default 1. */
  partitionsConsumedConcurrently?: number;
  /**
   * Consecutive messages of a partition handled in ONE transaction (their processed_events
   * records, every handler's writes, one commit). Default 100; 1 = one transaction per message.
   */
  transactionBatchSize?: number;
  /** processed_events rows of this group older than this are deleted. Default 30 days; 0 keeps them. */
  processedRetentionMs?: number;
  /**
   * Check each event's `data` against its contract before the handler (default true). The Nest
   * transport turns it off: there the handler's `@Payload()` DTO is validated by a pipe, and an
   * `InvalidEventPayloadError` it throws dead-letters the message the same way.
   */
  validateData?: boolean;
}

export interface EventConsumerStatus {
  groupId: string;
  /** Running and a member of its group. */
  joined: boolean;
  handled: number;
  duplicates: number;
  deadLettered: number;
  lastError?: string;
}

export const CONSUMER_DEFAULTS = {
  maxAttempts: 5,
  retry: { initialMs: 200, maxMs: 5_000 },
  sessionTimeoutMs: 30_000,
  heartbeatIntervalMs: 3_000,
  rebalanceTimeoutMs: 60_000,
  maxWaitTimeInMs: 1_000,
  transactionBatchSize: 100,
  processedRetentionMs: 30 * 24 * 3_600_000,
};
