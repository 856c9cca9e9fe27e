import Decoder from 'kafkajs/src/protocol/decoder';
import decodeRecordBatch from 'kafkajs/src/protocol/recordBatch/v0/decoder';
import { ErrorCode } from '../protocol/error-codes';
import { RecordBatchView, withBaseOffset } from '../protocol/record-batch';

interface StoredBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly maxTimestamp: number;
  /** The batch as the producer sent it, with only baseOffset rewritten. */
  readonly bytes: Buffer;
}

interface ProducerState {
  epoch: number;
  lastSequence: number;
  /** Like Kafka, remember the last few batches so a retried batch is answered, not appended again. */
  recent: { firstSequence: number; lastSequence: number; baseOffset: number }[];
}

export interface AppendResult {
  errorCode: ErrorCode;
  /** Offset of the first record appended (or of the original copy of a duplicate); -1 on error. */
  baseOffset: number;
}

const RECENT_BATCHES_PER_PRODUCER = 5;
const SEQUENCE_MODULUS = 2 ** 31;

/** One partition's log, in memory. Offsets are assigned here, never by the producer. */
export class PartitionLog {
  private readonly batches: StoredBatch[] = [];
  private endOffset = 0;
  private readonly producers = new Map<number, ProducerState>();

  /** Nothing is ever deleted from a partition, so the log always starts at 0. */
  get logStartOffset(): number {
    return 0;
  }

  /** With a single replica every appended record is committed, so this is also the log end offset. */
  get highWatermark(): number {
    return this.endOffset;
  }

  append(batches: readonly RecordBatchView[]): AppendResult {
    let firstBaseOffset = -1;
    for (const batch of batches) {
      const result = this.appendBatch(batch);
      if (result.errorCode !== ErrorCode.None) return result;
      if (firstBaseOffset < 0) firstBaseOffset = result.baseOffset;
    }
    return { errorCode: ErrorCode.None, baseOffset: firstBaseOffset };
  }

  /**
   * Whole batches starting with the one that holds `offset` (the client skips records before the
   * offset it asked for). With `atLeastOne`, the first batch is returned even if it exceeds maxBytes,
   * so an oversized batch cannot stall a consumer (KIP-74).
   */
  read(offset: number, maxBytes: number, atLeastOne: boolean): Buffer[] {
    const result: Buffer[] = [];
    let size = 0;
    for (let i = this.indexOfBatchContaining(offset); i < this.batches.length; i++) {
      const { bytes } = this.batches[i];
      if (size + bytes.length > maxBytes && !(atLeastOne && result.length === 0)) break;
      result.push(bytes);
      size += bytes.length;
    }
    return result;
  }

  /** The first record whose timestamp is at or after `timestamp` (ListOffsets by time). */
  async offsetForTimestamp(timestamp: number): Promise<{ offset: number; timestamp: number } | undefined> {
    const batch = this.batches.find((candidate) => candidate.maxTimestamp >= timestamp);
    if (!batch) return undefined;
    try {
      const { records } = await decodeRecordBatch(new Decoder(batch.bytes));
      const record = records.find((candidate) => Number(candidate.timestamp) >= timestamp);
      if (record) return { offset: Number(record.offset), timestamp: Number(record.timestamp) };
    } catch {
      // Compressed with a codec kafkajs has no implementation registered for: answer at batch level.
    }
    return { offset: batch.baseOffset, timestamp: batch.maxTimestamp };
  }

  private appendBatch(batch: RecordBatchView): AppendResult {
    const sequenceCheck = this.checkSequence(batch);
    if (sequenceCheck) return sequenceCheck;

    const baseOffset = this.endOffset;
    const stored: StoredBatch = {
      baseOffset,
      lastOffset: baseOffset + batch.lastOffsetDelta,
      maxTimestamp: batch.maxTimestamp,
      bytes: withBaseOffset(batch.bytes, baseOffset),
    };
    this.batches.push(stored);
    this.endOffset = stored.lastOffset + 1;
    this.rememberProducerBatch(batch, baseOffset);
    return { errorCode: ErrorCode.None, baseOffset };
  }

  /**
   * Idempotent producers (producerId >= 0) number their batches per partition. A batch we already
   * appended (a retry after a lost response) gets the original offset back; a gap is an error.
   * Returns undefined when the batch should be appended.
   */
  private checkSequence(batch: RecordBatchView): AppendResult | undefined {
    if (batch.producerId < 0) return undefined;
    const state = this.producers.get(batch.producerId);
    // First batch seen from this producer (or a new epoch): accept whatever sequence it starts at.
    if (!state || batch.producerEpoch > state.epoch) return undefined;
    if (batch.producerEpoch < state.epoch)
      return { errorCode: ErrorCode.InvalidProducerEpoch, baseOffset: -1 };

    const lastSequence = addSequence(batch.baseSequence, batch.lastOffsetDelta);
    const duplicate = state.recent.find(
      (seen) => seen.firstSequence === batch.baseSequence && seen.lastSequence === lastSequence,
    );
    if (duplicate) return { errorCode: ErrorCode.None, baseOffset: duplicate.baseOffset };
    if (batch.baseSequence !== addSequence(state.lastSequence, 1)) {
      return { errorCode: ErrorCode.OutOfOrderSequenceNumber, baseOffset: -1 };
    }
    return undefined;
  }

  private rememberProducerBatch(batch: RecordBatchView, baseOffset: number): void {
    if (batch.producerId < 0) return;
    let state = this.producers.get(batch.producerId);
    if (!state || batch.producerEpoch > state.epoch) {
      state = { epoch: batch.producerEpoch, lastSequence: -1, recent: [] };
      this.producers.set(batch.producerId, state);
    }
    state.lastSequence = addSequence(batch.baseSequence, batch.lastOffsetDelta);
    state.recent.push({ firstSequence: batch.baseSequence, lastSequence: state.lastSequence, baseOffset });
    if (state.recent.length > RECENT_BATCHES_PER_PRODUCER) state.recent.shift();
  }

  /** Index of the first batch whose last offset is >= offset (batches.length when there is none). */
  private indexOfBatchContaining(offset: number): number {
    let low = 0;
    let high = this.batches.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.batches[middle].lastOffset < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Producer sequences are non-negative int32s that wrap around to 0. */
function addSequence(sequence: number, increment: number): number {
  return (sequence + increment) % SEQUENCE_MODULUS;
}
