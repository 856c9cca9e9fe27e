import { invalidTopicNameReason } from '../log/topic-store';
import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, BrokerContext, responseWithThrottle } from './handler';

interface TopicToCreate {
  name: string;
  numPartitions: number;
  replicationFactor: number;
  assignedPartitions: number;
}

interface Outcome {
  errorCode: ErrorCode;
  errorMessage: string | null;
}

const DEFAULT = -1;

/**
 * CreateTopics v0-3: v1 adds validate_only and the error message, v2 the throttle time; v3 is v2.
 * A replication factor above 1 is refused, as a one-broker Kafka would: code that
 * asks for 3 replicas should learn it here, not in production. Topic configs are accepted and ignored.
 */
export const createTopicsHandler: ApiHandler = {
  apiKey: ApiKey.CreateTopics,
  minVersion: 0,
  maxVersion: 3,
  async handle(request, { broker, apiVersion }) {
    const topics: TopicToCreate[] = request.array((topicReader) => {
      const name = topicReader.string();
      const numPartitions = topicReader.int32();
      const replicationFactor = topicReader.int16();
      const assignments = topicReader.array((assignmentReader) => {
        assignmentReader.int32(); // partition index
        return assignmentReader.array((brokerReader) => brokerReader.int32());
      });
      topicReader.array((configReader) => [configReader.string(), configReader.nullableString()]);
      return { name, numPartitions, replicationFactor, assignedPartitions: assignments.length };
    });
    request.int32(); // timeout_ms: creation is immediate
    const validateOnly = apiVersion >= 1 ? request.boolean() : false;

    const outcomes = topics.map((topic) => ({ name: topic.name, ...create(broker, topic, validateOnly) }));
    return responseWithThrottle(apiVersion, 2).array(outcomes, (writer, outcome) =>
      writer
        .string(outcome.name)
        .int16(outcome.errorCode)
        .when(apiVersion >= 1, (message) => message.string(outcome.errorMessage)),
    );
  },
};

function create(broker: BrokerContext, topic: TopicToCreate, validateOnly: boolean): Outcome {
  const invalidName = invalidTopicNameReason(topic.name);
  if (invalidName) return { errorCode: ErrorCode.InvalidTopic, errorMessage: invalidName };
  if (broker.topics.partitions(topic.name)) {
    return { errorCode: ErrorCode.TopicAlreadyExists, errorMessage: `topic "${topic.name}" already exists` };
  }
  const partitions =
    topic.numPartitions !== DEFAULT
      ? topic.numPartitions
      : topic.assignedPartitions > 0
        ? topic.assignedPartitions
        : broker.topics.defaultPartitions;
  if (partitions < 1) {
    return {
      errorCode: ErrorCode.InvalidPartitions,
      errorMessage: 'the number of partitions must be at least 1',
    };
  }
  if (topic.replicationFactor !== DEFAULT && topic.replicationFactor !== 1) {
    return {
      errorCode: ErrorCode.InvalidReplicationFactor,
      errorMessage: `replication factor ${topic.replicationFactor} is larger than the 1 available broker`,
    };
  }
  if (!validateOnly) {
    broker.topics.create(topic.name, partitions);
    broker.logger.info('topic created', { topic: topic.name, partitions });
  }
  return { errorCode: ErrorCode.None, errorMessage: null };
}
