import { TestResources } from './testing/kafkajs-test-kit';
import { ApiKey } from './protocol/api-keys';
import {
  bytesLeft,
  Decoder,
  Encoder,
  RawKafkaClient,
  readArray,
  readTopics,
} from './testing/raw-kafka-client';

// A consumer group's life at the oldest versions the broker advertises: what librdkafka's
// BROKER_BALANCED_CONSUMER feature check asks for (FindCoordinator, JoinGroup, SyncGroup,
// Heartbeat and LeaveGroup v0, OffsetCommit and OffsetFetch v1). v0 responses have no throttle time.

const GROUP = 'oldest-readers';
const TOPIC = 'oldest-group-topic';
const MEMBER_METADATA = Buffer.from([0, 0, 0, 0, 0, 1]);
const ASSIGNMENT = Buffer.from([0, 1, 2, 3]);

/** Reads `fields` in order and checks that nothing follows them. */
function readAll<T>(response: Decoder, fields: () => T): T {
  const values = fields();
  expect(bytesLeft(response)).toBe(0);
  return values;
}

describe('kafka-dev-broker consumer group at the oldest versions it advertises', () => {
  const resources = new TestResources();
  let client: RawKafkaClient;

  afterEach(async () => {
    client.close();
    await resources.closeAll();
  });

  it('joins, syncs, heartbeats, commits, fetches offsets, is described and listed, leaves and is deleted', async () => {
    const broker = await resources.broker();
    client = await RawKafkaClient.connect(broker.port);
    // Metadata v0 with a topic name auto-creates it, as the broker's auto-create setting allows.
    await client.request(ApiKey.Metadata, 0, (body) => body.writeInt32(1).writeString(TOPIC));

    const coordinator = await client.request(ApiKey.FindCoordinator, 0, (body) => body.writeString(GROUP));
    expect(
      readAll(coordinator, () => [
        coordinator.readInt16(),
        coordinator.readInt32(),
        coordinator.readString(),
        coordinator.readInt32(),
      ]),
    ).toEqual([0, 1, '127.0.0.1', broker.port]);

    // JoinGroup v0: no rebalance timeout in the request, no throttle time in the response.
    const joined = await client.request(ApiKey.JoinGroup, 0, (body) =>
      body
        .writeString(GROUP)
        .writeInt32(10_000)
        .writeString('')
        .writeString('consumer')
        .writeInt32(1)
        .writeString('range')
        .writeBytes(MEMBER_METADATA),
    );
    const join = readAll(joined, () => ({
      errorCode: joined.readInt16(),
      generationId: joined.readInt32(),
      protocol: joined.readString(),
      leader: joined.readString(),
      memberId: joined.readString() ?? '',
      members: readArray(joined, () => [joined.readString(), joined.readBytes()]),
    }));
    expect(join).toEqual({
      errorCode: 0,
      generationId: 1,
      protocol: 'range',
      leader: join.memberId,
      memberId: expect.stringMatching(/.+/),
      members: [[join.memberId, MEMBER_METADATA]],
    });
    const member = (body: Encoder) =>
      body.writeString(GROUP).writeInt32(join.generationId).writeString(join.memberId);

    const synced = await client.request(ApiKey.SyncGroup, 0, (body) =>
      member(body).writeInt32(1).writeString(join.memberId).writeBytes(ASSIGNMENT),
    );
    expect(readAll(synced, () => [synced.readInt16(), synced.readBytes()])).toEqual([0, ASSIGNMENT]);

    const heartbeat = await client.request(ApiKey.Heartbeat, 0, member);
    expect(readAll(heartbeat, () => heartbeat.readInt16())).toBe(0);

    // OffsetCommit v1: a commit timestamp per partition, no retention time, no throttle time.
    const committed = await client.request(ApiKey.OffsetCommit, 1, (body) =>
      member(body)
        .writeInt32(1)
        .writeString(TOPIC)
        .writeInt32(1)
        .writeInt32(0)
        .writeInt64(42)
        .writeInt64(-1)
        .writeString('v1'),
    );
    expect(
      readAll(committed, () => readTopics(committed, () => [committed.readInt32(), committed.readInt16()])),
    ).toEqual([[TOPIC, [[0, 0]]]]);

    // OffsetFetch v1: per-partition error only (the top-level one comes with v2).
    const fetched = await client.request(ApiKey.OffsetFetch, 1, (body) =>
      body.writeString(GROUP).writeInt32(1).writeString(TOPIC).writeInt32(2).writeInt32(0).writeInt32(1),
    );
    expect(
      readAll(fetched, () =>
        readTopics(fetched, () => [
          fetched.readInt32(),
          fetched.readInt64(),
          fetched.readString(),
          fetched.readInt16(),
        ]),
      ),
    ).toEqual([
      [
        TOPIC,
        [
          [0, 42n, 'v1', 0],
          [1, -1n, '', 0],
        ],
      ],
    ]);

    const described = await client.request(ApiKey.DescribeGroups, 0, (body) =>
      body.writeInt32(1).writeString(GROUP),
    );
    const [group] = readAll(described, () =>
      readArray(described, () => ({
        errorCode: described.readInt16(),
        groupId: described.readString(),
        state: described.readString(),
        protocolType: described.readString(),
        protocol: described.readString(),
        members: readArray(described, () => [
          described.readString(),
          described.readString(),
          described.readString(),
          described.readBytes(),
          described.readBytes(),
        ]),
      })),
    );
    expect(group).toEqual({
      errorCode: 0,
      groupId: GROUP,
      state: 'Stable',
      protocolType: 'consumer',
      protocol: 'range',
      members: [[join.memberId, 'raw-kafka-client', '/127.0.0.1', MEMBER_METADATA, ASSIGNMENT]],
    });

    const listed = await client.request(ApiKey.ListGroups, 0);
    expect(
      readAll(listed, () => [
        listed.readInt16(),
        readArray(listed, () => [listed.readString(), listed.readString()]),
      ]),
    ).toEqual([0, [[GROUP, 'consumer']]]);

    const left = await client.request(ApiKey.LeaveGroup, 0, (body) =>
      body.writeString(GROUP).writeString(join.memberId),
    );
    expect(readAll(left, () => left.readInt16())).toBe(0);

    // DeleteGroups v0 has the throttle time already.
    const deleted = await client.request(ApiKey.DeleteGroups, 0, (body) =>
      body.writeInt32(1).writeString(GROUP),
    );
    expect(
      readAll(deleted, () => [
        deleted.readInt32(),
        readArray(deleted, () => [deleted.readString(), deleted.readInt16()]),
      ]),
    ).toEqual([0, [[GROUP, 0]]]);
  });
});
