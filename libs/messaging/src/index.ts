// Schema: what each service adds to its entities and migrations.
export {
  MESSAGING_ENTITIES,
  MESSAGING_MIGRATIONS,
  OUTBOX_ENTITIES,
  OUTBOX_MIGRATIONS,
  PROCESSED_EVENTS_ENTITIES,
  PROCESSED_EVENTS_MIGRATIONS,
} from './schema';
export { OutboxMessageEntity } from './outbox/outbox-message.entity';
export { ProcessedEventEntity } from './consumer/processed-event.entity';
export { CreateOutbox1763740000000 } from './migrations/1763740000000-create-outbox.migration';
export { CreateProcessedEvents1763740000001 } from './migrations/1763740000001-create-processed-events.migration';
export { AddOutboxTraceContext1795300000000 } from './migrations/1795300000000-add-outbox-trace-context.migration';
export { carrierFromKafkaHeaders, kafkaTraceHeaders, traceCreate, traceProcess } from './tracing/message-tracing';

// Framework-free parts (usable outside Nest: tests, tools).
export { InvalidEventError, Outbox, OUTBOX_CHANNEL, type OutboxEventInput, type OutboxOptions } from './outbox/outbox';
export { type EventProducer } from './outbox/event-producer';
export { OutboxRelay, OUTBOX_RELAY_LOCK_KEY, type OutboxRelayOptions, type OutboxRelayStatus } from './outbox/outbox-relay';
export { type OutboxBacklog, outboxBacklog } from './outbox/outbox-backlog';
export {
  EventConsumer,
  type EventConsumerOptions,
  type EventConsumerStatus,
  type EventHandlerContext,
  type EventSubscription,
} from './consumer/event-consumer';
export { InvalidEventPayloadError } from './consumer/invalid-event-payload.error';
export {
  DEAD_LETTER_HEADERS,
  type DeadLetter,
  type DeadLetterSink,
  KafkaDeadLetterSink,
} from './consumer/dead-letter';
export {
  createKafka,
  type KafkaConnectionOptions,
  type KafkaLogLevel,
  type KafkaSaslMechanism,
  parseBrokers,
} from './kafka/kafka-client';
export { ensureTopics, type EnsureTopicsOptions } from './kafka/ensure-topics';
export { deadLetterTopicOf, messageKeyOf, prefixedTopic, unprefixedTopic } from './kafka/topic-names';
export { type BackoffOptions } from '@erp/database';
export { type MessagingLogger, SILENT_LOGGER } from './logger';

// Nest.
export { MessagingModule } from './nest/messaging.module';
export {
  type ConsumerSettings,
  MESSAGING_OPTIONS,
  type MessagingModuleOptions,
  type RelaySettings,
} from './nest/messaging-options';
export { KafkaEventTransport, type KafkaEventTransportOptions } from './transport/kafka-event-transport';
export { KafkaEventContext } from './transport/kafka-event-context';
export { type EventPatternExtras } from './transport/event-pattern-extras';
export { EventPayloadValidationPipe } from './transport/event-payload.pipe';
export { EventHandlerFailureFilter } from './transport/event-handler-failure.filter';
export { OutboxRelayService } from './nest/outbox-relay.service';
export { KafkaServiceConfig, messagingOptionsFrom } from './config/kafka-service-config';
export { consumerDeadLetters, consumerLag, reportConsumerStatuses, reportOutboxBacklog } from './metrics/messaging-metrics';
