// Projects that compile the broker through the @erp/kafka-dev-broker alias include only their own
// sources; this brings the declarations of the kafkajs protocol modules the broker reuses with it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a declaration-only file cannot be imported
/// <reference path="./protocol/kafkajs-internals.d.ts" />
export {
  startKafkaDevBroker,
  type KafkaDevBroker,
  type KafkaDevBrokerOptions,
  type KafkaDevBrokerStopOptions,
} from './kafka-dev-broker';
export { consoleLogger, type KafkaDevBrokerLogger } from './logger';
