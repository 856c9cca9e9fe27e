import { Admin, Consumer, ISocketFactory, Kafka, Producer } from 'kafkajs';
import { connect, Socket } from 'node:net';
import {
  committedTotal,
  FAST_GROUP,
  ReceivedMessage,
  sleep,
  TestResources,
  valuesOf,
  waitFor,
} from './testing/kafkajs-test-kit';

describe('kafka-dev-broker consumer groups with kafkajs', () => {
  const resources = new TestResources();

  afterEach(() => resources.closeAll());

  async function produce(producer: Producer, topic: string, ids: readonly string[]): Promise<void> {
    await producer.send({ topic, messages: ids.map((id) => ({ key: id, value: id })) });
  }

  function ids(prefix: string, count: number): string[] {
    return Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  }

  /** Waits until the group is Stable with exactly these consumers, owning disjoint partitions that cover the topic. */
  async function waitForAssignment(
    admin: Admin,
    groupId: string,
    assignments: ReadonlyMap<string, number[]>,
    members: readonly string[],
    partitions: number,
  ): Promise<void> {
    await waitFor(`a stable group of ${members.join(', ')}`, async () => {
      const owned = members.flatMap((member) => assignments.get(member) ?? []);
      if (owned.length !== partitions || new Set(owned).size !== partitions) return false;
      if (members.some((member) => (assignments.get(member) ?? []).length === 0)) return false;
      const { groups } = await admin.describeGroups([groupId]);
      return groups[0].state === 'Stable' && groups[0].members.length === members.length;
    });
  }

  it('splits partitions between members, rebalances when one joins or leaves, and handles each message once', async () => {
    const broker = await resources.broker();
    const kafka = resources.kafka(broker, 'payments');
    const admin = await resources.admin(kafka);
    await admin.createTopics({ topics: [{ topic: 'payments', numPartitions: 3 }] });
    const producer = await resources.producer(kafka);
    const groupId = 'payment-handlers';
    const received: ReceivedMessage[] = [];
    const assignments = new Map<string, number[]>();
    const rebalances = new Map<string, number>();
    const member = (name: string) =>
      resources.consumer(kafka, name, {
        groupId,
        topic: 'payments',
        received,
        beforeRun: (consumer: Consumer) => {
          consumer.on(consumer.events.GROUP_JOIN, ({ payload }) =>
            assignments.set(name, payload.memberAssignment['payments'] ?? []),
          );
          consumer.on(consumer.events.REBALANCING, () =>
            rebalances.set(name, (rebalances.get(name) ?? 0) + 1),
          );
        },
      });
    const handledOnce = async (expected: readonly string[]) => {
      await waitFor(`${expected.length} messages handled`, () => received.length >= expected.length);
      await waitFor(
        'offsets committed',
        async () => (await committedTotal(admin, groupId, 'payments')) === expected.length,
      );
      await sleep(300); // a duplicate delivery would show up here
      expect([...valuesOf(received)].sort()).toEqual([...expected].sort());
    };
    const ownedBy = (name: string, messages: readonly ReceivedMessage[]) =>
      messages
        .filter(({ consumer }) => consumer === name)
        .every(({ partition }) => assignments.get(name)?.includes(partition));

    // Two members split the three partitions.
    const first = await member('first');
    await member('second');
    await waitForAssignment(admin, groupId, assignments, ['first', 'second'], 3);
    const batchA = ids('a', 30);
    await produce(producer, 'payments', batchA);
    await handledOnce(batchA);
    expect(new Set(received.map(({ consumer }) => consumer))).toEqual(new Set(['first', 'second']));
    expect(ownedBy('first', received) && ownedBy('second', received)).toBe(true);

    // A third member joining makes the others rejoin (REBALANCE_IN_PROGRESS on heartbeat): one partition each.
    const third = await member('third');
    await waitForAssignment(admin, groupId, assignments, ['first', 'second', 'third'], 3);
    expect(rebalances.get('first')).toBeGreaterThanOrEqual(1);
    expect(rebalances.get('second')).toBeGreaterThanOrEqual(1);
    const batchB = ids('b', 30);
    const fromB = received.length;
    await produce(producer, 'payments', batchB);
    await handledOnce([...batchA, ...batchB]);
    const receivedB = received.slice(fromB);
    expect(new Set(receivedB.map(({ consumer }) => consumer))).toEqual(new Set(['first', 'second', 'third']));
    expect(['first', 'second', 'third'].every((name) => ownedBy(name, receivedB))).toBe(true);

    // A member leaving hands its partition to the others.
    await third.disconnect();
    await waitForAssignment(admin, groupId, assignments, ['first', 'second'], 3);
    const batchC = ids('c', 30);
    const fromC = received.length;
    await produce(producer, 'payments', batchC);
    await handledOnce([...batchA, ...batchB, ...batchC]);
    expect(received.slice(fromC).every(({ consumer }) => consumer !== 'third')).toBe(true);
    await first.disconnect();
  });

  it('resumes a restarted consumer from its committed offset', async () => {
    const broker = await resources.broker();
    const kafka = resources.kafka(broker, 'resume');
    const admin = await resources.admin(kafka);
    const producer = await resources.producer(kafka);
    const groupId = 'shipment-handlers';
    await produce(producer, 'shipments', ids('first', 5));

    const beforeRestart: ReceivedMessage[] = [];
    const consumer = await resources.consumer(kafka, 'before', {
      groupId,
      topic: 'shipments',
      received: beforeRestart,
    });
    await waitFor('5 messages', () => beforeRestart.length === 5);
    await waitFor('offsets committed', async () => (await committedTotal(admin, groupId, 'shipments')) === 5);
    await consumer.disconnect();

    await produce(producer, 'shipments', ids('second', 5));
    const afterRestart: ReceivedMessage[] = [];
    await resources.consumer(kafka, 'after', { groupId, topic: 'shipments', received: afterRestart });
    await waitFor('5 messages', () => afterRestart.length === 5);
    await sleep(300);

    expect([...valuesOf(afterRestart)].sort()).toEqual(ids('second', 5));
  });

  it('redelivers uncommitted messages to the group after a consumer crashes, once its session times out', async () => {
    const broker = await resources.broker();
    const groupId = 'refund-handlers';
    const producer = await resources.producer(resources.kafka(broker, 'refund-producer'));
    const sent = ids('refund', 6);
    await produce(producer, 'refunds', sent);

    // The crashing consumer's sockets can be cut, and it cannot reconnect afterwards: a dead process.
    const sockets = new Set<Socket>();
    let crashed = false;
    const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
      const socket = connect({ host, port }, onConnect);
      if (crashed) socket.destroy(new Error('crashed'));
      else sockets.add(socket);
      return socket;
    };
    const crashingKafka: Kafka = resources.kafka(broker, 'crashing', { socketFactory });
    const handledBeforeCrash: ReceivedMessage[] = [];
    await resources.consumer(crashingKafka, 'crashing', {
      groupId,
      topic: 'refunds',
      received: handledBeforeCrash,
      autoCommit: false, // handles, never commits
      config: {
        ...FAST_GROUP,
        sessionTimeout: 1500,
        retry: { initialRetryTime: 50, retries: 2, restartOnFailure: async () => false },
      },
    });
    await waitFor('6 messages before the crash', () => handledBeforeCrash.length === 6);

    // With an error, so kafkajs notices at once (it does not listen to 'close') and stops retrying.
    crashed = true;
    for (const socket of sockets) socket.destroy(new Error('crashed'));
    const admin = await resources.admin(resources.kafka(broker, 'refund-admin'));
    const redelivered: ReceivedMessage[] = [];
    await resources.consumer(resources.kafka(broker, 'survivor'), 'survivor', {
      groupId,
      topic: 'refunds',
      received: redelivered,
    });
    await waitFor('6 redelivered messages', () => redelivered.length === 6);

    expect([...valuesOf(redelivered)].sort()).toEqual([...valuesOf(handledBeforeCrash)].sort());
    const { groups } = await admin.describeGroups([groupId]);
    expect(groups[0].members.map(({ clientId }) => clientId)).toEqual(['survivor']);
  });
});
