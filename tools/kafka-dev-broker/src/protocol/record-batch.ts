import crc32C from 'kafkajs/src/protocol/recordBatch/crc32C';

/**
 * Byte layout of a v2 record batch header (magic 2, the only format kafkajs produces for Produce v3+).
 * The broker never re-encodes records: it reads these fields, rewrites baseOffset and stores the
 * bytes. The CRC covers everything from `attributes` to the end, so the fields before it
 * (baseOffset, batchLength, partitionLeaderEpoch, magic) can change without invalidating it.
 */
const Field = {
  baseOffset: 0,
  batchLength: 8,
  magic: 16,
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  maxTimestamp: 35,
  producerId: 43,
  producerEpoch: 51,
  baseSequence: 53,
  recordCount: 57,
} as const;

/** Size of the header up to and including the record count. */
export const RECORD_BATCH_HEADER_SIZE = 61;
/** baseOffset + batchLength: the part of the header not counted in batchLength. */
const LOG_OVERHEAD = 12;
const CURRENT_MAGIC = 2;
const TRANSACTIONAL_FLAG = 0x10;
const CONTROL_FLAG = 0x20;

export class InvalidRecordBatchError extends Error {
  constructor(
    message: string,
    /** true when the batch is well formed but in a message format we do not accept (magic < 2). */
    readonly unsupportedFormat = false,
  ) {
    super(message);
  }
}

/** A record batch as received, with the header fields the broker needs already read. */
export interface RecordBatchView {
  readonly bytes: Buffer;
  readonly lastOffsetDelta: number;
  readonly maxTimestamp: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly recordCount: number;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
}

/**
 * Splits a Produce request's record set into batches and validates each one (size, magic, CRC).
 * Throws InvalidRecordBatchError; a partition's records are then rejected as a whole.
 */
export function splitRecordBatches(records: Buffer): RecordBatchView[] {
  const batches: RecordBatchView[] = [];
  let position = 0;
  while (position < records.length) {
    if (records.length - position < RECORD_BATCH_HEADER_SIZE) {
      throw new InvalidRecordBatchError('truncated record batch header');
    }
    const size = LOG_OVERHEAD + records.readInt32BE(position + Field.batchLength);
    if (size < RECORD_BATCH_HEADER_SIZE || position + size > records.length) {
      throw new InvalidRecordBatchError(`record batch length ${size} does not fit the record set`);
    }
    batches.push(viewRecordBatch(records.subarray(position, position + size)));
    position += size;
  }
  return batches;
}

function viewRecordBatch(bytes: Buffer): RecordBatchView {
  const magic = bytes.readInt8(Field.magic);
  if (magic !== CURRENT_MAGIC) {
    throw new InvalidRecordBatchError(`message format with magic ${magic} is not supported`, true);
  }
  if (!hasValidCrc(bytes)) throw new InvalidRecordBatchError('record batch CRC mismatch');
  const attributes = bytes.readInt16BE(Field.attributes);
  return {
    bytes,
    lastOffsetDelta: bytes.readInt32BE(Field.lastOffsetDelta),
    maxTimestamp: Number(bytes.readBigInt64BE(Field.maxTimestamp)),
    producerId: Number(bytes.readBigInt64BE(Field.producerId)),
    producerEpoch: bytes.readInt16BE(Field.producerEpoch),
    baseSequence: bytes.readInt32BE(Field.baseSequence),
    recordCount: bytes.readInt32BE(Field.recordCount),
    isTransactional: (attributes & TRANSACTIONAL_FLAG) !== 0,
    isControl: (attributes & CONTROL_FLAG) !== 0,
  };
}

export function hasValidCrc(batch: Buffer): boolean {
  return crc32C(batch.subarray(Field.attributes)) === batch.readUInt32BE(Field.crc);
}

/** A private copy of the batch with its baseOffset set; every other byte is left as the producer sent it. */
export function withBaseOffset(batch: Buffer, baseOffset: number): Buffer {
  const copy = Buffer.from(batch);
  copy.writeBigInt64BE(BigInt(baseOffset), Field.baseOffset);
  return copy;
}
