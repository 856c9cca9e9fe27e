import { OffsetToCommit } from '../group/group-protocol.types';
import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/**
 * OffsetCommit v1-5. v1 carries a commit timestamp per partition, v2-4 a retention time (both
 * ignored: committed offsets are kept as long as the broker runs), v3 adds the throttle time. Not
 * v0: in Kafka it writes to ZooKeeper, a store apart from the one v1+ and OffsetFetch v1+ use.
 */
export const offsetCommitHandler: ApiHandler = {
  apiKey: ApiKey.OffsetCommit,
  minVersion: 1,
  maxVersion: 5,
  async handle(request, { broker, apiVersion }) {
    const groupId = request.string();
    const generationId = request.int32();
    const memberId = request.string();
    if (apiVersion >= 2 && apiVersion <= 4) request.int64(); // retention_time_ms
    const topics = request.array((topicReader) => ({
      name: topicReader.string(),
      partitions: topicReader.array((partitionReader) => {
        const index = partitionReader.int32();
        const offset = partitionReader.int64();
        if (apiVersion === 1) partitionReader.int64(); // commit_timestamp
        return { index, offset, metadata: partitionReader.nullableString() };
      }),
    }));

    const offsets: OffsetToCommit[] = topics.flatMap(({ name, partitions }) =>
      partitions.map(({ index, offset, metadata }) => ({ topic: name, partition: index, offset, metadata })),
    );
    let errorCode: ErrorCode;
    if (groupId === '') errorCode = ErrorCode.InvalidGroupId;
    else {
      // A commit from outside the group (generation -1, as admin.setOffsets sends) may create it.
      const group = generationId < 0 ? broker.groups.getOrCreate(groupId) : broker.groups.group(groupId);
      errorCode = group ? group.commit(generationId, memberId, offsets) : ErrorCode.UnknownMemberId;
    }

    return responseWithThrottle(apiVersion, 3).array(topics, (writer, topic) =>
      writer
        .string(topic.name)
        .array(topic.partitions, (partitionWriter, { index }) =>
          partitionWriter.int32(index).int16(errorCode),
        ),
    );
  },
};
