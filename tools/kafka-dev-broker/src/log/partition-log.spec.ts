import Record from 'kafkajs/src/protocol/recordBatch/record/v0';
import { RecordBatch } from 'kafkajs/src/protocol/recordBatch/v0';
import { ErrorCode } from '../protocol/error-codes';
import { splitRecordBatches } from '../protocol/record-batch';
import { PartitionLog } from './partition-log';

async function batch(
  count: number,
  options: { producerId?: number; firstSequence?: number; timestamp?: number } = {},
) {
  const timestamp = options.timestamp ?? 1_700_000_000_000;
  const records = Array.from({ length: count }, (_, offsetDelta) =>
    Record({ offsetDelta, timestampDelta: offsetDelta, value: `v${offsetDelta}` }),
  );
  const encoded = await RecordBatch({
    records,
    lastOffsetDelta: count - 1,
    firstTimestamp: timestamp,
    maxTimestamp: timestamp + count - 1,
    producerId: options.producerId,
    firstSequence: options.firstSequence,
  });
  return splitRecordBatches(encoded.buffer);
}

describe('PartitionLog', () => {
  it('assigns consecutive offsets across batches', async () => {
    const log = new PartitionLog();

    expect(log.append(await batch(3))).toEqual({ errorCode: ErrorCode.None, baseOffset: 0 });
    expect(log.append(await batch(2))).toEqual({ errorCode: ErrorCode.None, baseOffset: 3 });
    expect(log.highWatermark).toBe(5);
  });

  it('serves whole batches starting with the one that holds the requested offset', async () => {
    const log = new PartitionLog();
    log.append(await batch(3));
    log.append(await batch(2));

    const fromMiddle = log.read(1, 1_000_000, true);
    const atEnd = log.read(5, 1_000_000, true);

    expect(fromMiddle.map((bytes) => bytes.readBigInt64BE(0))).toEqual([0n, 3n]);
    expect(atEnd).toEqual([]);
  });

  it('returns one oversized batch only when asked for at least one', async () => {
    const log = new PartitionLog();
    log.append(await batch(3));

    expect(log.read(0, 10, true)).toHaveLength(1);
    expect(log.read(0, 10, false)).toHaveLength(0);
  });

  it('answers a retried idempotent batch with its original offset instead of appending it again', async () => {
    const log = new PartitionLog();
    const first = await batch(2, { producerId: 5, firstSequence: 0 });
    log.append(first);
    log.append(await batch(1, { producerId: 5, firstSequence: 2 }));

    const retry = log.append(first);

    expect(retry).toEqual({ errorCode: ErrorCode.None, baseOffset: 0 });
    expect(log.highWatermark).toBe(3);
  });

  it('rejects an idempotent batch that skips sequence numbers', async () => {
    const log = new PartitionLog();
    log.append(await batch(2, { producerId: 5, firstSequence: 0 }));

    const gap = log.append(await batch(1, { producerId: 5, firstSequence: 3 }));

    expect(gap.errorCode).toBe(ErrorCode.OutOfOrderSequenceNumber);
    expect(log.highWatermark).toBe(2);
  });

  it('finds the first record at or after a timestamp', async () => {
    const log = new PartitionLog();
    log.append(await batch(3, { timestamp: 1000 })); // records at 1000, 1001, 1002
    log.append(await batch(2, { timestamp: 2000 })); // records at 2000, 2001

    expect(await log.offsetForTimestamp(1001)).toEqual({ offset: 1, timestamp: 1001 });
    expect(await log.offsetForTimestamp(1500)).toEqual({ offset: 3, timestamp: 2000 });
    expect(await log.offsetForTimestamp(3000)).toBeUndefined();
  });
});
