export {
  startKafkaDevBroker,
  type KafkaDevBroker,
  type KafkaDevBrokerOptions,
  type KafkaDevBrokerStopOptions,
} from './kafka-dev-broker';
export { consoleLogger, type KafkaDevBrokerLogger } from './logger';
