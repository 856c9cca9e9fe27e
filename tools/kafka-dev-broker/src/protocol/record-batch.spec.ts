import Decoder from 'kafkajs/src/protocol/decoder';
import crc32C from 'kafkajs/src/protocol/recordBatch/crc32C';
import Record from 'kafkajs/src/protocol/recordBatch/record/v0';
import { RecordBatch } from 'kafkajs/src/protocol/recordBatch/v0';
import decodeRecordBatch from 'kafkajs/src/protocol/recordBatch/v0/decoder';
import {
  hasValidCrc,
  InvalidRecordBatchError,
  RECORD_BATCH_HEADER_SIZE,
  splitRecordBatches,
  withBaseOffset,
} from './record-batch';

/** A batch exactly as kafkajs's producer encodes it. */
async function kafkajsBatch(values: string[], options: { producerId?: number; firstSequence?: number } = {}) {
  const records = values.map((value, offsetDelta) => Record({ offsetDelta, key: `k${offsetDelta}`, value }));
  const encoded = await RecordBatch({
    records,
    lastOffsetDelta: values.length - 1,
    firstTimestamp: 1_700_000_000_000,
    maxTimestamp: 1_700_000_000_000,
    ...options,
  });
  return encoded.buffer;
}

describe('record batches', () => {
  it('keeps the CRC valid and every other byte identical when baseOffset is rewritten', async () => {
    const original = await kafkajsBatch(['a', 'b', 'c']);
    expect(hasValidCrc(original)).toBe(true);

    const rewritten = withBaseOffset(original, 41);

    expect(rewritten.readBigInt64BE(0)).toBe(41n);
    expect(rewritten.subarray(8).equals(original.subarray(8))).toBe(true);
    expect(crc32C(rewritten.subarray(21))).toBe(rewritten.readUInt32BE(17));
    expect(hasValidCrc(rewritten)).toBe(true);
    expect(original.readBigInt64BE(0)).toBe(0n); // the producer's bytes are not touched
  });

  it('gives records offsets counted from the rewritten baseOffset when kafkajs decodes them', async () => {
    const rewritten = withBaseOffset(await kafkajsBatch(['a', 'b']), 7);

    const { records } = await decodeRecordBatch(new Decoder(rewritten));

    expect(records.map(({ offset, value }) => [offset, value?.toString()])).toEqual([
      ['7', 'a'],
      ['8', 'b'],
    ]);
  });

  it('splits a record set holding several batches and reads their headers', async () => {
    const first = await kafkajsBatch(['a', 'b', 'c'], { producerId: 9, firstSequence: 4 });
    const second = await kafkajsBatch(['d']);

    const batches = splitRecordBatches(Buffer.concat([first, second]));

    expect(batches).toHaveLength(2);
    expect(batches[0]).toMatchObject({ lastOffsetDelta: 2, recordCount: 3, producerId: 9, baseSequence: 4 });
    expect(batches[1]).toMatchObject({ lastOffsetDelta: 0, recordCount: 1, producerId: -1 });
  });

  it('rejects a batch whose bytes do not match its CRC', async () => {
    const corrupted = Buffer.from(await kafkajsBatch(['value']));
    corrupted[corrupted.length - 2] ^= 0xff;

    expect(() => splitRecordBatches(corrupted)).toThrow(InvalidRecordBatchError);
  });

  it('rejects a truncated record set', async () => {
    const batch = await kafkajsBatch(['value']);

    expect(() => splitRecordBatches(batch.subarray(0, batch.length - 1))).toThrow(InvalidRecordBatchError);
    expect(() => splitRecordBatches(batch.subarray(0, RECORD_BATCH_HEADER_SIZE - 1))).toThrow(
      InvalidRecordBatchError,
    );
  });
});
