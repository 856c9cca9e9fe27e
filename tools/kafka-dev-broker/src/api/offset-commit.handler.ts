import { OffsetToCommit } from '../group/consumer-group';
import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** OffsetCommit v5 (no retention time: committed offsets are kept as long as the broker runs). */
export const offsetCommitHandler: ApiHandler = {
  apiKey: ApiKey.OffsetCommit,
  minVersion: 5,
  maxVersion: 5,
  async handle(request, { broker }) {
    const groupId = request.string();
    const generationId = request.int32();
    const memberId = request.string();
    const topics = request.array((topicReader) => ({
      name: topicReader.string(),
      partitions: topicReader.array((partitionReader) => ({
        index: partitionReader.int32(),
        offset: partitionReader.int64(),
        metadata: partitionReader.nullableString(),
      })),
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

    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
      .array(topics, (writer, topic) =>
        writer
          .string(topic.name)
          .array(topic.partitions, (partitionWriter, { index }) =>
            partitionWriter.int32(index).int16(errorCode),
          ),
      );
  },
};
