import Record from 'kafkajs/src/protocol/recordBatch/record/v0';
import { RecordBatch } from 'kafkajs/src/protocol/recordBatch/v0';
import { ApiKey } from './protocol/api-keys';
import { TestResources } from './testing/kafkajs-test-kit';
import { RawKafkaClient, readArray, readToEnd, readTopics } from './testing/raw-kafka-client';
import { versionForRun } from './testing/served-versions';

// Every version of the topic and record APIs, answered in that version's layout: run n uses
// version n of each API, clamped to its served range, so runs 0-7 pass through all of them. The
// readers follow Kafka's message schemas (clients/src/main/resources/common/message/*.json): a
// field exists from the version its "versions" says. Each response must be read to its last byte.
describe('kafka-dev-broker topics and records at every version it advertises', () => {
  const resources = new TestResources();
  let client: RawKafkaClient;

  afterEach(async () => {
    client.close();
    await resources.closeAll();
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7])('run %i: topics, records and offsets', async (run) => {
    const broker = await resources.broker({ defaultPartitions: 1 });
    client = await RawKafkaClient.connect(broker.port);
    const v = (api: ApiKey) => versionForRun(api, run);
    const topic = `every-version-${run}`;

    const createV = v(ApiKey.CreateTopics);
    const created = await client.request(ApiKey.CreateTopics, createV, (body) => {
      body
        .writeInt32(1)
        .writeString(topic)
        .writeInt32(2)
        .writeInt16(1)
        .writeInt32(0)
        .writeInt32(0)
        .writeInt32(1000);
      if (createV >= 1) body.writeBoolean(false); // validate_only
    });
    const createdTopics = readToEnd(created, createV, 2, () =>
      readArray(created, () => [
        created.readString(),
        created.readInt16(),
        createV >= 1 ? created.readString() : null,
      ]),
    );
    expect(createdTopics).toEqual([[topic, 0, null]]);

    const metadataV = v(ApiKey.Metadata);
    const metadata = await client.request(ApiKey.Metadata, metadataV, (body) => {
      body.writeInt32(1).writeString(topic);
      if (metadataV >= 4) body.writeBoolean(false); // allow_auto_topic_creation
    });
    const layout = readToEnd(metadata, metadataV, 3, () => ({
      brokers: readArray(metadata, () => [
        metadata.readInt32(),
        metadata.readString(),
        metadata.readInt32(),
        ...(metadataV >= 1 ? [metadata.readString()] : []), // rack
      ]),
      clusterId: metadataV >= 2 ? metadata.readString() : undefined,
      controller: metadataV >= 1 ? metadata.readInt32() : undefined,
      topics: readArray(metadata, () => [
        metadata.readInt16(),
        metadata.readString(),
        ...(metadataV >= 1 ? [metadata.readBoolean()] : []), // is_internal
        readArray(metadata, () => [
          metadata.readInt16(),
          metadata.readInt32(),
          metadata.readInt32(),
          readArray(metadata, () => metadata.readInt32()),
          readArray(metadata, () => metadata.readInt32()),
          ...(metadataV >= 5 ? [readArray(metadata, () => metadata.readInt32())] : []), // offline
        ]).length,
      ]),
    }));
    expect(layout).toEqual({
      brokers: [[1, '127.0.0.1', broker.port, ...(metadataV >= 1 ? [null] : [])]],
      clusterId: metadataV >= 2 ? 'kafka-dev-broker' : undefined,
      controller: metadataV >= 1 ? 1 : undefined,
      topics: [[0, topic, ...(metadataV >= 1 ? [false] : []), 2]],
    });

    const produceV = v(ApiKey.Produce);
    const batch = await RecordBatch({
      records: [Record({ value: `run ${run}` })],
      firstTimestamp: 1,
      maxTimestamp: 1,
    });
    const produced = await client.request(ApiKey.Produce, produceV, (body) =>
      body
        .writeString(null)
        .writeInt16(-1)
        .writeInt32(1000)
        .writeInt32(1)
        .writeString(topic)
        .writeInt32(1)
        .writeInt32(1)
        .writeBytes(batch.buffer),
    );
    const producedPartitions = readTopics(produced, () => [
      produced.readInt32(),
      produced.readInt16(),
      produced.readInt64(),
      produced.readInt64(), // log_append_time
      ...(produceV >= 5 ? [produced.readInt64()] : []), // log_start_offset
    ]);
    // Produce's throttle time comes last, after the topics just read.
    expect(readToEnd(produced, produceV, 1, () => producedPartitions)).toEqual([
      [topic, [[1, 0, 0n, -1n, ...(produceV >= 5 ? [0n] : [])]]],
    ]);

    const listV = v(ApiKey.ListOffsets);
    const listed = await client.request(ApiKey.ListOffsets, listV, (body) => {
      body.writeInt32(-1);
      if (listV >= 2) body.writeInt8(0); // isolation_level
      body.writeInt32(1).writeString(topic).writeInt32(1).writeInt32(1).writeInt64(-1);
    });
    const offsets = readToEnd(listed, listV, 2, () =>
      readTopics(listed, () => [
        listed.readInt32(),
        listed.readInt16(),
        listed.readInt64(),
        listed.readInt64(),
      ]),
    );
    expect(offsets).toEqual([[topic, [[1, 0, -1n, 1n]]]]);

    const producerIdV = v(ApiKey.InitProducerId);
    const producerId = await client.request(ApiKey.InitProducerId, producerIdV, (body) =>
      body.writeString(null).writeInt32(60_000),
    );
    const [errorCode, id, epoch] = readToEnd(producerId, producerIdV, 0, () => [
      producerId.readInt16(),
      producerId.readInt64(),
      producerId.readInt16(),
    ]);
    expect({ errorCode, idType: typeof id, epoch }).toEqual({ errorCode: 0, idType: 'bigint', epoch: 0 });

    const deleteV = v(ApiKey.DeleteTopics);
    const deleted = await client.request(ApiKey.DeleteTopics, deleteV, (body) =>
      body.writeInt32(1).writeString(topic).writeInt32(1000),
    );
    const deletedTopics = readToEnd(deleted, deleteV, 1, () =>
      readArray(deleted, () => [deleted.readString(), deleted.readInt16()]),
    );
    expect(deletedTopics).toEqual([[topic, 0]]);
  });
});
