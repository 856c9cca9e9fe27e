import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Kafka } from 'kafkajs';
import { createKafka } from '../kafka/kafka-client';
import { Outbox } from '../outbox/outbox';
import { EventSubscriptions } from './event-subscriptions.service';
import { MESSAGING_OPTIONS, type MessagingModuleOptions } from './messaging-options';
import { OutboxRelayService } from './outbox-relay.service';

/**
 * Kafka for a Nest service: the `Outbox` to add events in a transaction, the relay that publishes
 * them, and the consumer groups of `@ConsumeEvents` handlers. Global, imported once by the app
 * module (after `DatabaseModule`, whose DataSource it uses).
 *
 * ```ts
 * MessagingModule.forRoot(messagingOptionsFrom(config, { clientId: 'customers-v1' }))
 * ```
 */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        { provide: Kafka, useFactory: () => createKafka({ ...options, logger: new Logger('Kafka') }) },
        {
          provide: Outbox,
          useFactory: () => new Outbox({ source: options.source ?? options.clientId, topicPrefix: options.topicPrefix }),
        },
        OutboxRelayService,
        EventSubscriptions,
      ],
      exports: [Kafka, Outbox, OutboxRelayService, EventSubscriptions],
    };
  }
}
