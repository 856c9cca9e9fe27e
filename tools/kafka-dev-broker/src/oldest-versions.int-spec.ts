import Record from 'kafkajs/src/protocol/recordBatch/record/v0';
import { RecordBatch } from 'kafkajs/src/protocol/recordBatch/v0';
import { KafkaDevBroker } from './kafka-dev-broker';
import { TestResources } from './testing/kafkajs-test-kit';
import { ApiKey } from './protocol/api-keys';
import { bytesLeft, Decoder, RawKafkaClient, readArray, readTopics } from './testing/raw-kafka-client';

// Each API at the oldest version ApiVersions advertises for it (api-versions.int-spec.ts checks the
// ranges), answered field by field in that version's layout and nothing more. kafkajs and kcat
// use the newest versions; these are what older clients and librdkafka's feature checks rely on.

/** Produce v2-4 (base offset, log append time) and ListOffsets v1+ (timestamp, offset) partitions. */
function readIndexErrorAndTwoInt64(response: Decoder) {
  return [response.readInt32(), response.readInt16(), response.readInt64(), response.readInt64()];
}

/** Metadata v0: brokers without rack, no cluster or controller id, topics without is_internal. */
function readMetadataV0(response: Decoder) {
  const brokers = readArray(response, () => [
    response.readInt32(),
    response.readString(),
    response.readInt32(),
  ]);
  const topics = readArray(response, () => ({
    errorCode: response.readInt16(),
    name: response.readString(),
    partitions: readArray(response, () => ({
      errorCode: response.readInt16(),
      index: response.readInt32(),
      leader: response.readInt32(),
      replicas: readArray(response, () => response.readInt32()),
      isr: readArray(response, () => response.readInt32()),
    })),
  }));
  return { brokers, topics };
}

describe('kafka-dev-broker at the oldest version it advertises of each API', () => {
  const resources = new TestResources();
  let broker: KafkaDevBroker;
  let client: RawKafkaClient;

  beforeEach(async () => {
    broker = await resources.broker({ defaultPartitions: 2 });
    client = await RawKafkaClient.connect(broker.port);
  });
  afterEach(async () => {
    client.close();
    await resources.closeAll();
  });

  it('creates (CreateTopics v0), lists (Metadata v0, empty list = every topic) and deletes (DeleteTopics v0)', async () => {
    const created = await client.request(ApiKey.CreateTopics, 0, (body) =>
      body
        .writeInt32(1)
        .writeString('oldest')
        .writeInt32(4)
        .writeInt16(1)
        .writeInt32(0)
        .writeInt32(0)
        .writeInt32(1000),
    );
    expect(readArray(created, () => [created.readString(), created.readInt16()])).toEqual([['oldest', 0]]);
    expect(bytesLeft(created)).toBe(0);

    const metadata = await client.request(ApiKey.Metadata, 0, (body) => body.writeInt32(0));
    const { brokers, topics } = readMetadataV0(metadata);
    expect(bytesLeft(metadata)).toBe(0);
    expect(brokers).toEqual([[1, '127.0.0.1', broker.port]]);
    expect(topics).toEqual([
      {
        errorCode: 0,
        name: 'oldest',
        partitions: [0, 1, 2, 3].map((index) => ({
          errorCode: 0,
          index,
          leader: 1,
          replicas: [1],
          isr: [1],
        })),
      },
    ]);

    const deleted = await client.request(ApiKey.DeleteTopics, 0, (body) =>
      body.writeInt32(1).writeString('oldest').writeInt32(1000),
    );
    expect(readArray(deleted, () => [deleted.readString(), deleted.readInt16()])).toEqual([['oldest', 0]]);
    expect(bytesLeft(deleted)).toBe(0);
    const after = await client.request(ApiKey.Metadata, 0, (body) => body.writeInt32(0));
    expect(readMetadataV0(after).topics).toEqual([]);
  });

  it('appends with Produce v3 (no log_start_offset) and finds offsets with ListOffsets v1 (no throttle time)', async () => {
    const now = Date.now();
    const batch = await RecordBatch({
      records: ['a', 'b'].map((value, offsetDelta) => Record({ offsetDelta, key: value, value })),
      lastOffsetDelta: 1,
      firstTimestamp: now,
      maxTimestamp: now,
    });
    const produced = await client.request(ApiKey.Produce, 3, (body) =>
      body
        .writeString(null)
        .writeInt16(1)
        .writeInt32(1000)
        .writeInt32(1)
        .writeString('v3-topic')
        .writeInt32(1)
        .writeInt32(0)
        .writeBytes(batch.buffer),
    );
    const partitions = readTopics(produced, () => readIndexErrorAndTwoInt64(produced));
    expect(partitions).toEqual([['v3-topic', [[0, 0, 0n, -1n]]]]);
    expect(produced.readInt32()).toBe(0); // throttle_time_ms, since v1
    expect(bytesLeft(produced)).toBe(0);

    for (const [timestamp, offset] of [
      [-1n, 2n],
      [-2n, 0n],
    ]) {
      const listed = await client.request(ApiKey.ListOffsets, 1, (body) =>
        body
          .writeInt32(-1)
          .writeInt32(1)
          .writeString('v3-topic')
          .writeInt32(1)
          .writeInt32(0)
          .writeInt64(timestamp),
      );
      const answer = readTopics(listed, () => readIndexErrorAndTwoInt64(listed));
      expect(answer).toEqual([['v3-topic', [[0, 0, -1n, offset]]]]);
      expect(bytesLeft(listed)).toBe(0);
    }
  });
});
