import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { reportConsumerStatuses } from '../metrics/messaging-metrics';
import { KafkaEventTransport } from '../transport/kafka-event-transport';
import { MESSAGING_OPTIONS, type MessagingModuleOptions } from './messaging-options';

/** Puts the service's consumer groups' dead-letter counts on /metrics (`kafka_consumer_dead_letters_total`). */
@Injectable()
export class ConsumerMetricsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopReporting?: () => void;

  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingModuleOptions,
    private readonly transport: KafkaEventTransport,
  ) {}

  onApplicationBootstrap(): void {
    this.stopReporting = reportConsumerStatuses(this.options.clientId, () => this.transport.consumerStatuses());
  }

  onApplicationShutdown(): void {
    this.stopReporting?.();
  }
}
