import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, BrokerContext, responseWithThrottle } from './handler';
import { autoCreateTopic } from './topics';

export const CLUSTER_ID = 'kafka-dev-broker';

/**
 * Metadata v0-6 (librdkafka asks with v4, kafkajs with v6). v0 means "every topic" with an empty
 * list, v1+ with a null one; before v4 the client cannot forbid auto-creation, so the broker's
 * setting decides, as in Kafka. v1 adds rack, controller and is_internal, v2 the cluster id, v3 the
 * throttle time, v5 offline replicas.
 */
export const metadataHandler: ApiHandler = {
  apiKey: ApiKey.Metadata,
  minVersion: 0,
  maxVersion: 6,
  async handle(request, { broker, apiVersion }) {
    const requested = request.nullableArray((reader) => reader.string());
    const allowAutoTopicCreation = apiVersion >= 4 ? request.boolean() : true;
    const allTopics = requested === null || (apiVersion === 0 && requested.length === 0);
    const topics = (allTopics ? broker.topics.names() : requested).map((name) => ({
      name,
      errorCode: allowAutoTopicCreation ? autoCreateTopic(broker, name) : existenceError(broker, name),
      partitionCount: broker.topics.partitions(name)?.length ?? 0,
    }));
    const { node } = broker;

    return responseWithThrottle(apiVersion, 3)
      .array([node], (writer, { nodeId, host, port }) =>
        writer
          .int32(nodeId)
          .string(host)
          .int32(port)
          .when(apiVersion >= 1, (rack) => rack.string(null)),
      )
      .when(apiVersion >= 2, (writer) => writer.string(CLUSTER_ID))
      .when(apiVersion >= 1, (writer) => writer.int32(node.nodeId)) // controller
      .array(topics, (writer, topic) =>
        writer
          .int16(topic.errorCode)
          .string(topic.name)
          .when(apiVersion >= 1, (internal) => internal.boolean(false))
          .array(range(topic.partitionCount), (partitionWriter, partition) =>
            partitionWriter
              .int16(ErrorCode.None)
              .int32(partition)
              .int32(node.nodeId) // leader
              .int32Array([node.nodeId]) // replicas
              .int32Array([node.nodeId]) // in-sync replicas
              .when(apiVersion >= 5, (offline) => offline.int32Array([])),
          ),
      );
  },
};

function existenceError(broker: BrokerContext, topic: string): ErrorCode {
  return broker.topics.partitions(topic) ? ErrorCode.None : ErrorCode.UnknownTopicOrPartition;
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}
