import { PartitionLog } from '../log/partition-log';
import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

const LATEST = -1;
const EARLIEST = -2;

interface OffsetAnswer {
  index: number;
  errorCode: ErrorCode;
  timestamp: number;
  offset: number;
}

/**
 * ListOffsets v1-3: latest (-1), earliest (-2) or by timestamp. v2 adds the isolation level and
 * the throttle time; v3 is v2. Not v0: it answers with the base offsets of log segments, which an
 * in-memory log has not.
 */
export const listOffsetsHandler: ApiHandler = {
  apiKey: ApiKey.ListOffsets,
  minVersion: 1,
  maxVersion: 3,
  async handle(request, { broker, apiVersion }) {
    request.int32(); // replica_id
    // isolation_level: no transactions, so the last stable offset is the high watermark
    if (apiVersion >= 2) request.int8();
    const topics = request.array((topicReader) => ({
      name: topicReader.string(),
      partitions: topicReader.array((partitionReader) => ({
        index: partitionReader.int32(),
        timestamp: partitionReader.int64(),
      })),
    }));

    const answers = await Promise.all(
      topics.map(async (topic) => ({
        name: topic.name,
        partitions: await Promise.all(
          topic.partitions.map(({ index, timestamp }) =>
            answer(index, timestamp, broker.topics.partition(topic.name, index)),
          ),
        ),
      })),
    );

    return responseWithThrottle(apiVersion, 2).array(answers, (writer, topic) =>
      writer
        .string(topic.name)
        .array(topic.partitions, (partitionWriter, partition) =>
          partitionWriter
            .int32(partition.index)
            .int16(partition.errorCode)
            .int64(partition.timestamp)
            .int64(partition.offset),
        ),
    );
  },
};

async function answer(
  index: number,
  timestamp: number,
  log: PartitionLog | undefined,
): Promise<OffsetAnswer> {
  if (!log) return { index, errorCode: ErrorCode.UnknownTopicOrPartition, timestamp: -1, offset: -1 };
  if (timestamp === LATEST)
    return { index, errorCode: ErrorCode.None, timestamp: -1, offset: log.highWatermark };
  if (timestamp === EARLIEST)
    return { index, errorCode: ErrorCode.None, timestamp: -1, offset: log.logStartOffset };
  const found = await log.offsetForTimestamp(timestamp);
  return { index, errorCode: ErrorCode.None, timestamp: found?.timestamp ?? -1, offset: found?.offset ?? -1 };
}
