import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

const NO_OFFSET = -1;

/**
 * OffsetFetch v1-4. v2 adds a top-level error code and lets a null topic list ask for everything the
 * group committed, v3 the throttle time; v4 is v3. Not v0: in Kafka it reads ZooKeeper's offsets.
 */
export const offsetFetchHandler: ApiHandler = {
  apiKey: ApiKey.OffsetFetch,
  minVersion: 1,
  maxVersion: 4,
  async handle(request, { broker, apiVersion }) {
    const groupId = request.string();
    const requested = request.nullableArray((topicReader) => ({
      topic: topicReader.string(),
      partitions: topicReader.array((partitionReader) => partitionReader.int32()),
    }));
    const group = broker.groups.group(groupId);
    const topics = requested ?? group?.committedPartitions() ?? [];

    return responseWithThrottle(apiVersion, 3)
      .array(topics, (writer, { topic, partitions }) =>
        writer.string(topic).array(partitions, (partitionWriter, partition) => {
          const committed = group?.committedOffset(topic, partition);
          partitionWriter
            .int32(partition)
            .int64(committed?.offset ?? NO_OFFSET)
            .string(committed?.metadata ?? '')
            .int16(ErrorCode.None);
        }),
      )
      .when(apiVersion >= 2, (writer) => writer.int16(ErrorCode.None));
  },
};
