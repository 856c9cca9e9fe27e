import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { HYBRID_MICROSERVICE } from '@erp/bootstrap';
import { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { createKafka } from '../kafka/kafka-client';
import { Outbox } from '../outbox/outbox';
import { KafkaEventMicroservice } from '../transport/kafka-event-microservice';
import { KafkaEventTransport } from '../transport/kafka-event-transport';
import { MESSAGING_OPTIONS, type MessagingModuleOptions } from './messaging-options';
import { ConsumerMetricsService } from './consumer-metrics.service';
import { OutboxRelayService } from './outbox-relay.service';

/**
 * Kafka for a Nest service: the `Outbox` to add events in a transaction, the relay that publishes
 * them, and the event transport that runs the app's `@EventPattern` handlers (connected as a hybrid
 * microservice by the shared bootstrap). Global, imported once by the app module (after
 * `DatabaseModule`, whose DataSource it uses).
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
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        { provide: Kafka, useFactory: () => createKafka({ ...options, logger: new Logger('Kafka') }) },
        {
          provide: Outbox,
          useFactory: () => new Outbox({ source: options.source ?? options.clientId, topicPrefix: options.topicPrefix }),
        },
        OutboxRelayService,
        {
          provide: KafkaEventTransport,
          inject: [Kafka, getDataSourceToken()],
          useFactory: (kafka: Kafka, dataSource: DataSource) =>
            new KafkaEventTransport({
              kafka,
              dataSource,
              topicPrefix: options.topicPrefix,
              consumers: options.consumers,
              groupsOff: options.consumerGroupsOff,
              logger: new Logger('EventConsumer'),
            }),
        },
        ConsumerMetricsService,
        {
          provide: HYBRID_MICROSERVICE,
          inject: [KafkaEventTransport],
          useFactory: (transport: KafkaEventTransport) => new KafkaEventMicroservice(transport),
        },
      ],
      exports: [Kafka, Outbox, OutboxRelayService, KafkaEventTransport],
    };
  }
}
