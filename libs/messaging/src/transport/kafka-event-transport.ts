import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import type { DomainEvent } from '@erp/contracts';
import type { Kafka } from 'kafkajs';
import { isObservable, lastValueFrom } from 'rxjs';
import type { DataSource } from 'typeorm';
import {
  EventConsumer,
  type EventConsumerStatus,
  type EventHandlerContext,
  type EventSubscription,
} from '../consumer/event-consumer';
import type { MessagingLogger } from '../logger';
import type { ConsumerSettings } from '../nest/messaging-options';
import { eventPatternExtrasOf } from './event-pattern-extras';
import { KafkaEventContext } from './kafka-event-context';

export interface KafkaEventTransportOptions {
  kafka: Kafka;
  /** The service's DataSource: each event's transaction and the processed_events inbox. */
  dataSource: DataSource;
  /** `KAFKA_TOPIC_PREFIX`: prefixes the topics and the consumer groups on the cluster. */
  topicPrefix?: string;
  /** Settings every consumer group of the service gets. */
  consumers?: ConsumerSettings;
  /** Groups this process does not consume (`KAFKA_CONSUMER_GROUPS_OFF`); `*` is every group. */
  groupsOff?: readonly string[];
  logger?: MessagingLogger;
}


/**
 * `@nestjs/microservices` transport for the system's domain events, on the `EventConsumer` that
 * keeps the delivery guarantees (ServerKafka, Nest's own, commits offsets on its own schedule and
 * knows nothing of an inbox, a transaction per event or dead letters):
 *
 * - Every `@EventPattern(topic, { groupId, eventTypes? })` handler found in the app's controllers
 *   joins its group; one `EventConsumer` per group, for all the topics its handlers name; one
 *   handler per topic (see `subscriptionsByGroup`).
 * - The consumer parses the envelope and records the event in `processed_events` in a transaction,
 *   then calls the handler through Nest (pipes, guards, interceptors, filters) with the envelope as
 *   the payload and a `KafkaEventContext` whose manager is that transaction; the offset is
 *   committed after the commit. A handler that throws is retried, then dead-lettered; one whose
 *   payload fails its DTO is dead-lettered at once (see `EventPayloadValidationPipe`).
 * - `close()` (the app's shutdown) leaves the groups after the messages in hand are finished.
 */
export class KafkaEventTransport extends Server implements CustomTransportStrategy {
  /** A handler's failure comes back to `invoke` (and so to the consumer's retries), not to Nest's log. */
  override readonly propagatesEventHandlerErrors = true;
  private readonly consumers = new Map<string, EventConsumer>();

  constructor(private readonly options: KafkaEventTransportOptions) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    try {
      for (const [groupId, subscriptions] of this.subscriptionsByGroup()) {
        if (this.isOff(groupId)) {
          this.options.logger?.warn(`consumer group ${groupId} is off in this process (KAFKA_CONSUMER_GROUPS_OFF)`);
          continue;
        }
        // One Kafka consumer per topic of a group, in a cluster group of its own (sharing the
        // group's inbox), so a backlog on one topic never holds back another's events: kafkajs
        // fetches a consumer's partitions together and waits for the whole fetch to be handled.
        const split = subscriptions.length > 1;
        for (const subscription of subscriptions) {
          const kafkaGroupId = split ? `${groupId}.${subscription.topic}` : groupId;
          const consumer = new EventConsumer({
            ...this.options.consumers,
            kafka: this.options.kafka,
            dataSource: this.options.dataSource,
            groupId,
            // A group that read several topics in one cluster group before: its offsets carry over.
            ...(split ? { kafkaGroupId, carryOffsetsFrom: groupId } : {}),
            subscriptions: [subscription],
            topicPrefix: this.options.topicPrefix,
            logger: this.options.logger,
            // The handler's @Payload() DTO validates `data` (in the pipe), so it is checked once.
            validateData: false,
          });
          this.consumers.set(kafkaGroupId, consumer);
          consumer.start();
        }
      }
    } catch (error) {
      callback(error);
      return;
    }
    callback();
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers.values()].map((consumer) => consumer.stop()));
    this.consumers.clear();
  }

  /** The transport reports through `consumerStatuses()` and the metrics, not through Nest's status events. */
  on(): never {
    throw new Error('KafkaEventTransport emits no events: read consumerStatuses() or the consumer metrics');
  }

  /** The running consumers, one per group and topic. */
  unwrap<T>(): T {
    return [...this.consumers.values()] as T;
  }

  /** Resolves once every consumer of the group (each of its topics') has joined; every group's without one. */
  async ready(groupId?: string): Promise<void> {
    await Promise.all([...this.consumers.values()].filter((c) => groupId === undefined || c.groupId === groupId).map((c) => c.ready()));
  }

  consumerStatuses(): EventConsumerStatus[] {
    return [...this.consumers.values()].map((consumer) => consumer.status());
  }

  private isOff(groupId: string): boolean {
    const off = this.options.groupsOff ?? [];
    return off.includes('*') || off.includes(groupId);
  }

  /** Groups the event handlers Nest registered: group -> one subscription per topic. */
  private subscriptionsByGroup(): Map<string, EventSubscription[]> {
    const byGroup = new Map<string, EventSubscription[]>();
    for (const [topic, handler] of this.getHandlers()) {
      if (!handler.isEventHandler) throw new Error(`@MessagePattern('${topic}') is not supported: events have no reply`);
      // Nest chains a second handler of the same pattern to the first and runs them together
      // (forkJoin): concurrently on one transaction, and both for every event type. One handler
      // per topic keeps an event's writes in order and its eventTypes meaningful.
      if (handler.next) throw new Error(`two @EventPattern('${topic}') handlers: the Kafka event transport takes one per topic and app`);
      const { groupId, eventTypes } = eventPatternExtrasOf(topic, handler.extras);
      const subscriptions = byGroup.get(groupId) ?? [];
      subscriptions.push({ topic, eventTypes, handler: (event, context) => this.invoke(handler, event, context) });
      byGroup.set(groupId, subscriptions);
    }
    return byGroup;
  }

  /** Runs one Nest handler to its end; its failure (as thrown, see the filter) rejects. */
  private async invoke(handler: MessageHandler, event: DomainEvent, context: EventHandlerContext): Promise<void> {
    const result: unknown = await handler(event, new KafkaEventContext([context, event]));
    if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
  }
}
