import { PartitionLog } from '../log/partition-log';
import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

const LATEST = -1;
const EARLIEST = -2;

interface OffsetAnswer {
  index: number;
  errorCode: ErrorCode;
  timestamp: number;
  offset: number;
}

/** ListOffsets v3 (same wire format as v2): latest (-1), earliest (-2) or by timestamp. */
export const listOffsetsHandler: ApiHandler = {
  apiKey: ApiKey.ListOffsets,
  minVersion: 3,
  maxVersion: 3,
  async handle(request, { broker }) {
    request.int32(); // replica_id
    request.int8(); // isolation_level: no transactions, so the last stable offset is the high watermark
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

    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
      .array(answers, (writer, topic) =>
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
