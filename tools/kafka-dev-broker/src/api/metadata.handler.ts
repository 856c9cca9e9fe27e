import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, BrokerContext, THROTTLE_TIME_MS } from './handler';
import { autoCreateTopic } from './topics';

export const CLUSTER_ID = 'kafka-dev-broker';

/** Metadata v6 (v4+ carries allowAutoTopicCreation). A null topic list means every topic. */
export const metadataHandler: ApiHandler = {
  apiKey: ApiKey.Metadata,
  minVersion: 6,
  maxVersion: 6,
  async handle(request, { broker }) {
    const requested = request.nullableArray((reader) => reader.string());
    const allowAutoTopicCreation = request.boolean();
    const topics = (requested ?? broker.topics.names()).map((name) => ({
      name,
      errorCode: allowAutoTopicCreation ? autoCreateTopic(broker, name) : existenceError(broker, name),
      partitionCount: broker.topics.partitions(name)?.length ?? 0,
    }));
    const { node } = broker;

    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
      .array([node], (writer, { nodeId, host, port }) =>
        writer.int32(nodeId).string(host).int32(port).string(null),
      )
      .string(CLUSTER_ID)
      .int32(node.nodeId) // controller
      .array(topics, (writer, topic) =>
        writer
          .int16(topic.errorCode)
          .string(topic.name)
          .boolean(false) // is_internal
          .array(
            range(topic.partitionCount),
            (partitionWriter, partition) =>
              partitionWriter
                .int16(ErrorCode.None)
                .int32(partition)
                .int32(node.nodeId) // leader
                .int32Array([node.nodeId]) // replicas
                .int32Array([node.nodeId]) // in-sync replicas
                .int32Array([]), // offline replicas
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
