import { ApiKey } from './protocol/api-keys';
import { TestResources } from './testing/kafkajs-test-kit';
import { Encoder, RawKafkaClient, readArray, readToEnd, readTopics } from './testing/raw-kafka-client';
import { versionForRun } from './testing/served-versions';

// A consumer group's life at every version of the group APIs: run n uses version n of each API,
// clamped to its served range, so runs 0-5 pass through all of them; run 0 is what librdkafka's
// BROKER_BALANCED_CONSUMER feature asks for (FindCoordinator, JoinGroup, SyncGroup, Heartbeat and
// LeaveGroup v0, OffsetCommit and OffsetFetch v1). Layouts follow Kafka's message schemas; each
// response must be read to its last byte.
describe('kafka-dev-broker consumer groups at every version it advertises', () => {
  const resources = new TestResources();
  let client: RawKafkaClient;

  afterEach(async () => {
    client.close();
    await resources.closeAll();
  });

  it.each([0, 1, 2, 3, 4, 5])('run %i: a consumer group from coordinator to deletion', async (run) => {
    const broker = await resources.broker({ defaultPartitions: 1 });
    client = await RawKafkaClient.connect(broker.port);
    const v = (api: ApiKey) => versionForRun(api, run);
    const group = `every-version-group-${run}`;

    const findV = v(ApiKey.FindCoordinator);
    const found = await client.request(ApiKey.FindCoordinator, findV, (body) => {
      body.writeString(group);
      if (findV >= 1) body.writeInt8(0); // key_type: group
    });
    const coordinator = readToEnd(found, findV, 1, () => [
      found.readInt16(),
      ...(findV >= 1 ? [found.readString()] : []), // error_message
      found.readInt32(),
      found.readString(),
      found.readInt32(),
    ]);
    expect(coordinator).toEqual([0, ...(findV >= 1 ? [null] : []), 1, '127.0.0.1', broker.port]);

    const joinV = v(ApiKey.JoinGroup);
    const joined = await client.request(ApiKey.JoinGroup, joinV, (body) => {
      body.writeString(group).writeInt32(10_000);
      if (joinV >= 1) body.writeInt32(10_000); // rebalance_timeout_ms
      body
        .writeString('')
        .writeString('consumer')
        .writeInt32(1)
        .writeString('range')
        .writeBytes(Buffer.from([run]));
    });
    const join = readToEnd(joined, joinV, 2, () => ({
      errorCode: joined.readInt16(),
      generationId: joined.readInt32(),
      protocol: joined.readString(),
      leader: joined.readString() ?? '',
      memberId: joined.readString() ?? '',
      members: readArray(joined, () => [joined.readString(), joined.readBytes()]),
    }));
    expect(join).toEqual({
      errorCode: 0,
      generationId: 1,
      protocol: 'range',
      leader: join.memberId,
      memberId: expect.stringMatching(/.+/),
      members: [[join.memberId, Buffer.from([run])]],
    });
    const member = (body: Encoder) => body.writeString(group).writeInt32(1).writeString(join.memberId);

    const syncV = v(ApiKey.SyncGroup);
    const synced = await client.request(ApiKey.SyncGroup, syncV, (body) =>
      member(body).writeInt32(1).writeString(join.memberId).writeBytes(Buffer.from('assignment')),
    );
    expect(readToEnd(synced, syncV, 1, () => [synced.readInt16(), synced.readBytes()])).toEqual([
      0,
      Buffer.from('assignment'),
    ]);

    const heartbeatV = v(ApiKey.Heartbeat);
    const heartbeat = await client.request(ApiKey.Heartbeat, heartbeatV, member);
    expect(readToEnd(heartbeat, heartbeatV, 1, () => heartbeat.readInt16())).toBe(0);

    const commitV = v(ApiKey.OffsetCommit);
    const committed = await client.request(ApiKey.OffsetCommit, commitV, (body) => {
      member(body);
      if (commitV >= 2 && commitV <= 4) body.writeInt64(-1); // retention_time_ms
      body
        .writeInt32(1)
        .writeString('t')
        .writeInt32(1)
        .writeInt32(0)
        .writeInt64(7 + run);
      if (commitV === 1) body.writeInt64(-1); // commit_timestamp
      body.writeString(`run ${run}`);
    });
    const commitErrors = readToEnd(committed, commitV, 3, () =>
      readTopics(committed, () => [committed.readInt32(), committed.readInt16()]),
    );
    expect(commitErrors).toEqual([['t', [[0, 0]]]]);

    const fetchV = v(ApiKey.OffsetFetch);
    const fetched = await client.request(ApiKey.OffsetFetch, fetchV, (body) =>
      body.writeString(group).writeInt32(1).writeString('t').writeInt32(1).writeInt32(0),
    );
    const fetchedOffsets = readToEnd(fetched, fetchV, 3, () => [
      readTopics(fetched, () => [
        fetched.readInt32(),
        fetched.readInt64(),
        fetched.readString(),
        fetched.readInt16(),
      ]),
      ...(fetchV >= 2 ? [fetched.readInt16()] : []), // top-level error_code
    ]);
    expect(fetchedOffsets).toEqual([
      [['t', [[0, BigInt(7 + run), `run ${run}`, 0]]]],
      ...(fetchV >= 2 ? [0] : []),
    ]);

    const describeV = v(ApiKey.DescribeGroups);
    const described = await client.request(ApiKey.DescribeGroups, describeV, (body) =>
      body.writeInt32(1).writeString(group),
    );
    const [description] = readToEnd(described, describeV, 1, () =>
      readArray(described, () => ({
        errorCode: described.readInt16(),
        groupId: described.readString(),
        state: described.readString(),
        protocolType: described.readString(),
        protocol: described.readString(),
        // member id, client id, client host, member metadata, assignment
        members: readArray(described, () => [
          described.readString(),
          described.readString(),
          described.readString(),
          described.readBytes(),
          described.readBytes(),
        ]),
      })),
    );
    expect(description).toEqual({
      errorCode: 0,
      groupId: group,
      state: 'Stable',
      protocolType: 'consumer',
      protocol: 'range',
      members: [
        [join.memberId, 'raw-kafka-client', '/127.0.0.1', Buffer.from([run]), Buffer.from('assignment')],
      ],
    });

    const listV = v(ApiKey.ListGroups);
    const listed = await client.request(ApiKey.ListGroups, listV);
    const groups = readToEnd(listed, listV, 1, () => [
      listed.readInt16(),
      readArray(listed, () => [listed.readString(), listed.readString()]),
    ]);
    expect(groups).toEqual([0, [[group, 'consumer']]]);

    const leaveV = v(ApiKey.LeaveGroup);
    const left = await client.request(ApiKey.LeaveGroup, leaveV, (body) =>
      body.writeString(group).writeString(join.memberId),
    );
    expect(readToEnd(left, leaveV, 1, () => left.readInt16())).toBe(0);

    const deleteV = v(ApiKey.DeleteGroups);
    const deleted = await client.request(ApiKey.DeleteGroups, deleteV, (body) =>
      body.writeInt32(1).writeString(group),
    );
    expect(
      readToEnd(deleted, deleteV, 0, () =>
        readArray(deleted, () => [deleted.readString(), deleted.readInt16()]),
      ),
    ).toEqual([[group, 0]]);
  });
});
