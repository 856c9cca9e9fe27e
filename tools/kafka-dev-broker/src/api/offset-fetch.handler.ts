import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

const NO_OFFSET = -1;

/** OffsetFetch v4 (same wire format as v3). A null topic list asks for everything the group committed. */
export const offsetFetchHandler: ApiHandler = {
  apiKey: ApiKey.OffsetFetch,
  minVersion: 4,
  maxVersion: 4,
  async handle(request, { broker }) {
    const groupId = request.string();
    const requested = request.nullableArray((topicReader) => ({
      topic: topicReader.string(),
      partitions: topicReader.array((partitionReader) => partitionReader.int32()),
    }));
    const group = broker.groups.group(groupId);
    const topics = requested ?? group?.committedPartitions() ?? [];

    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
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
      .int16(ErrorCode.None);
  },
};
