import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type EventType, eventTypesOf, TOPICS } from '@erp/contracts';
import { EventSubscriptions } from '@erp/messaging';
import { publisherOf } from '../publishers/publishers';
import { ingestEvent } from './event-intake';

export const CONSUMER_GROUP = 'webhook-publisher.deliveries';
export const EVENTS_CONSUMER_SETTINGS = Symbol('EVENTS_CONSUMER_SETTINGS');
export interface EventsConsumerSettings {
  enabled: boolean;
  /** The consumer group; environments sharing a cluster prefix it like their topics. */
  groupId: string;
}

/** The topics whose events become webhooks: sales orders v3 and the v1 financial records. */
export const CONSUMED_TOPICS = [TOPICS.salesOrders, TOPICS.customers, TOPICS.supplierInvoices, TOPICS.attachments];

/**
 * Wires the intake to Kafka through `@erp/messaging`: one consumer group over the four topics,
 * each event handled once (processed-events record in the same transaction as the delivery
 * rows), retried and then dead-lettered if it keeps failing. The intake itself (`ingestEvent`)
 * knows nothing about Kafka.
 */
@Injectable()
export class EventsConsumer implements OnModuleInit {
  constructor(
    private readonly subscriptions: EventSubscriptions,
    @Inject(EVENTS_CONSUMER_SETTINGS) private readonly settings: EventsConsumerSettings,
  ) {}

  onModuleInit(): void {
    if (!this.settings.enabled) return;
    for (const topic of CONSUMED_TOPICS) {
      const eventTypes = eventTypesOf(topic).filter((type) => publisherOf(type) !== undefined) as EventType[];
      this.subscriptions.subscribe(this.settings.groupId, {
        topic,
        eventTypes,
        handler: async (event, { manager }) => {
          await ingestEvent(manager, event);
        },
      });
    }
  }
}
