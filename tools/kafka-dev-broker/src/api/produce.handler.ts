import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { InvalidRecordBatchError, RecordBatchView, splitRecordBatches } from '../protocol/record-batch';
import { ApiHandler, BrokerContext, THROTTLE_TIME_MS } from './handler';
import { autoCreateTopic } from './topics';

interface PartitionResult {
  index: number;
  errorCode: ErrorCode;
  baseOffset: number;
}

const NO_TIMESTAMP = -1;

/**
 * Produce v3-7: v3 is the first that carries record batches (message format v2), the only format
 * stored; older versions carry message sets v0/v1. The requests of v3-7 are alike; v5 adds
 * log_start_offset to the response. With one replica, acks=1 and acks=-1 mean the same: the append
 * is done when we answer. acks=0 gets no answer.
 */
export const produceHandler: ApiHandler = {
  apiKey: ApiKey.Produce,
  minVersion: 3,
  maxVersion: 7,
  async handle(request, { broker, clientId, apiVersion }) {
    const transactionalId = request.nullableString();
    const acks = request.int16();
    request.int32(); // timeout_ms: there are no followers to wait for
    const topics = request.array((topicReader) => ({
      name: topicReader.string(),
      partitions: topicReader.array((partitionReader) => ({
        index: partitionReader.int32(),
        records: partitionReader.bytes(),
      })),
    }));

    const results = topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map(({ index, records }): PartitionResult => {
        const errorCode = checkRequest(acks, transactionalId) ?? autoCreateTopic(broker, topic.name);
        if (errorCode !== ErrorCode.None) return { index, errorCode, baseOffset: -1 };
        return { index, ...appendRecords(broker, topic.name, index, records, clientId) };
      }),
    }));
    if (acks === 0) return null;

    return new ResponseWriter()
      .array(results, (writer, topic) =>
        writer.string(topic.name).array(
          topic.partitions,
          (partitionWriter, partition) =>
            partitionWriter
              .int32(partition.index)
              .int16(partition.errorCode)
              .int64(partition.baseOffset)
              .int64(NO_TIMESTAMP) // log_append_time: topics use CreateTime
              .when(apiVersion >= 5, (logStart) => logStart.int64(0)), // nothing is ever deleted
        ),
      )
      .int32(THROTTLE_TIME_MS);
  },
};

function checkRequest(acks: number, transactionalId: string | null): ErrorCode | undefined {
  if (acks !== 0 && acks !== 1 && acks !== -1) return ErrorCode.InvalidRequiredAcks;
  // Transactions are out of scope; InitProducerId already refuses transactional ids.
  if (transactionalId !== null) return ErrorCode.InvalidRequest;
  return undefined;
}

function appendRecords(
  broker: BrokerContext,
  topic: string,
  partition: number,
  records: Buffer | null,
  clientId: string,
): { errorCode: ErrorCode; baseOffset: number } {
  let batches: RecordBatchView[];
  try {
    batches = splitRecordBatches(records ?? Buffer.alloc(0));
  } catch (error) {
    if (!(error instanceof InvalidRecordBatchError)) throw error;
    broker.logger.warn('rejected produce request', { topic, partition, clientId, reason: error.message });
    const errorCode = error.unsupportedFormat
      ? ErrorCode.UnsupportedForMessageFormat
      : ErrorCode.CorruptMessage;
    return { errorCode, baseOffset: -1 };
  }
  if (
    batches.length === 0 ||
    batches.some(({ isTransactional, isControl }) => isTransactional || isControl)
  ) {
    return { errorCode: ErrorCode.InvalidRequest, baseOffset: -1 };
  }
  const result = broker.topics.append(topic, partition, batches);
  if (result.errorCode !== ErrorCode.None && result.errorCode !== ErrorCode.UnknownTopicOrPartition) {
    broker.logger.warn('rejected produce request', {
      topic,
      partition,
      clientId,
      errorCode: result.errorCode,
    });
  }
  return result;
}
