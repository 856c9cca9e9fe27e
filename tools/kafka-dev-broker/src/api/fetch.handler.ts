import { TopicStore } from '../log/topic-store';
import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

interface FetchTopic {
  name: string;
  partitions: { index: number; fetchOffset: number; maxBytes: number }[];
}

interface FetchResult {
  topics: {
    name: string;
    partitions: { index: number; errorCode: ErrorCode; highWatermark: number; batches: Buffer[] }[];
  }[];
  bytes: number;
  hasError: boolean;
}

/**
 * Fetch v4 only: the first version that returns record batches (message format v2, the one format
 * stored; v0-3 would need down-conversion to message sets), and what kafkajs and librdkafka use
 * when v4 is the newest offered. No fetch sessions (v7+).
 * Long poll: with fewer than min_bytes available, the request is parked until an append brings
 * enough data or max_wait_time passes, as on a real broker.
 */
export const fetchHandler: ApiHandler = {
  apiKey: ApiKey.Fetch,
  minVersion: 4,
  maxVersion: 4,
  async handle(request, { broker }) {
    request.int32(); // replica_id: only consumers fetch from this broker
    const maxWaitMs = request.int32();
    const minBytes = request.int32();
    const maxBytes = request.int32();
    request.int8(); // isolation_level: without transactions both levels read the same records
    const topics: FetchTopic[] = request.array((topicReader) => ({
      name: topicReader.string(),
      partitions: topicReader.array((partitionReader) => ({
        index: partitionReader.int32(),
        fetchOffset: partitionReader.int64(),
        maxBytes: partitionReader.int32(),
      })),
    }));

    let result = read(broker.topics, topics, maxBytes);
    // Errors are answered at once, as Kafka does, so the client can refresh metadata or reset offsets.
    if (!result.hasError && result.bytes < minBytes && maxWaitMs > 0) {
      await broker.topics.waitForAppend(maxWaitMs, () => {
        result = read(broker.topics, topics, maxBytes);
        return result.hasError || result.bytes >= minBytes;
      });
      result = read(broker.topics, topics, maxBytes);
    }

    return new ResponseWriter().int32(THROTTLE_TIME_MS).array(result.topics, (writer, topic) =>
      writer.string(topic.name).array(topic.partitions, (partitionWriter, partition) => {
        partitionWriter
          .int32(partition.index)
          .int16(partition.errorCode)
          .int64(partition.highWatermark)
          .int64(partition.highWatermark) // last_stable_offset: no open transactions
          .int32Array([]) // aborted_transactions
          .int32(partition.batches.reduce((size, batch) => size + batch.length, 0));
        for (const batch of partition.batches) partitionWriter.raw(batch);
      }),
    );
  },
};

function read(store: TopicStore, topics: readonly FetchTopic[], maxBytes: number): FetchResult {
  let bytes = 0;
  let hasError = false;
  const resultTopics = topics.map((topic) => ({
    name: topic.name,
    partitions: topic.partitions.map(({ index, fetchOffset, maxBytes: partitionMaxBytes }) => {
      const log = store.partition(topic.name, index);
      if (!log) {
        hasError = true;
        return { index, errorCode: ErrorCode.UnknownTopicOrPartition, highWatermark: -1, batches: [] };
      }
      const { highWatermark } = log;
      if (fetchOffset < log.logStartOffset || fetchOffset > highWatermark) {
        hasError = true;
        return { index, errorCode: ErrorCode.OffsetOutOfRange, highWatermark, batches: [] };
      }
      const budget = Math.max(0, Math.min(partitionMaxBytes, maxBytes - bytes));
      // The first non-empty partition of the response always gets a batch, however large (KIP-74).
      const batches = log.read(fetchOffset, budget, bytes === 0);
      bytes += batches.reduce((size, batch) => size + batch.length, 0);
      return { index, errorCode: ErrorCode.None, highWatermark, batches };
    }),
  }));
  return { topics: resultTopics, bytes, hasError };
}
