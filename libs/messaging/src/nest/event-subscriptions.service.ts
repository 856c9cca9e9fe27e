import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { EventConsumer, type EventConsumerStatus, type EventSubscription } from '../consumer/event-consumer';
import { CONSUME_EVENTS_METADATA, type ConsumeEventsOptions } from './consume-events.decorator';
import { MESSAGING_OPTIONS, type MessagingModuleOptions } from './messaging-options';

/**
 * The service's consumer groups. Handlers come from `@ConsumeEvents` methods (found at start-up)
 * or from `subscribe()` calls in `onModuleInit`; each group gets one `EventConsumer`, started
 * once the application has bootstrapped and stopped before the database closes at shutdown.
 */
@Injectable()
export class EventSubscriptions implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventConsumer');
  private readonly pending = new Map<string, EventSubscription[]>();
  private readonly consumers = new Map<string, EventConsumer>();
  private started = false;

  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingModuleOptions,
    private readonly kafka: Kafka,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  /** Adds a handler for a topic in a group. Call it before the application has bootstrapped. */
  subscribe(groupId: string, subscription: EventSubscription): void {
    if (this.started) throw new Error(`subscribe(${groupId}) after start-up: call it in onModuleInit`);
    const list = this.pending.get(groupId) ?? [];
    list.push(subscription);
    this.pending.set(groupId, list);
  }

  /** The running consumer of a group (status, or `ready()` in tests). */
  consumer(groupId: string): EventConsumer | undefined {
    return this.consumers.get(groupId);
  }

  status(): EventConsumerStatus[] {
    return [...this.consumers.values()].map((consumer) => consumer.status());
  }

  onApplicationBootstrap(): void {
    this.discoverDecoratedHandlers();
    this.started = true;
    for (const [groupId, subscriptions] of this.pending) {
      const consumer = new EventConsumer({
        ...this.options.consumers,
        kafka: this.kafka,
        dataSource: this.dataSource,
        groupId,
        subscriptions,
        topicPrefix: this.options.topicPrefix,
        logger: this.logger,
      });
      this.consumers.set(groupId, consumer);
      consumer.start();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.consumers.values()].map((consumer) => consumer.stop()));
  }

  private discoverDecoratedHandlers(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const method = (instance as Record<string, unknown>)[name];
        if (typeof method !== 'function') continue;
        const meta = this.reflector.get<ConsumeEventsOptions | undefined>(CONSUME_EVENTS_METADATA, method);
        if (!meta) continue;
        this.subscribe(meta.groupId, {
          topic: meta.topic,
          eventTypes: meta.eventTypes,
          handler: (event, context) => method.call(instance, event, context) as Promise<void>,
        });
      }
    }
  }
}
