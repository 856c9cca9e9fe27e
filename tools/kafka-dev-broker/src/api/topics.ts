import { invalidTopicNameReason } from '../log/topic-store';
import { ErrorCode } from '../protocol/error-codes';
import { BrokerContext } from './handler';

/** Creates a missing topic with the default partition count when the broker allows it (Metadata, Produce). */
export function autoCreateTopic(broker: BrokerContext, topic: string): ErrorCode {
  if (broker.topics.partitions(topic)) return ErrorCode.None;
  if (!broker.autoCreateTopics) return ErrorCode.UnknownTopicOrPartition;
  if (invalidTopicNameReason(topic)) return ErrorCode.InvalidTopic;
  broker.topics.create(topic);
  broker.logger.info('topic auto-created', { topic, partitions: broker.topics.defaultPartitions });
  return ErrorCode.None;
}
