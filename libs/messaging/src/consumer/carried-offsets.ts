import type { Consumer, Kafka } from 'kafkajs';

/** `topic:partition` -> the offset to start from. */
export type CarriedOffsets = Map<string, string>;

const keyOf = (topic: string, partition: number) => `${topic}:${partition}`;

/**
 * The offsets a new cluster group takes over from the group it was split from: for each partition
 * of `topics` that `to` has never committed and `from` has, `from`'s committed offset. Read once
 * when the consumer starts; a partition `to` has committed is never moved back. A group's two
 * consumers may take over the same partition during their first rebalances: then a few events are
 * read twice, and the inbox (keyed by the logical group, which both share) skips the second copy.
 */
export async function offsetsToCarry(kafka: Kafka, groups: { from: string; to: string; topics: string[] }): Promise<CarriedOffsets> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [own, former] = await Promise.all([
      admin.fetchOffsets({ groupId: groups.to, topics: groups.topics }),
      admin.fetchOffsets({ groupId: groups.from, topics: groups.topics }),
    ]);
    const committed = new Set(own.flatMap(({ topic, partitions }) => partitions.filter((p) => Number(p.offset) >= 0).map((p) => keyOf(topic, p.partition))));
    const carried: CarriedOffsets = new Map();
    for (const { topic, partitions } of former) {
      for (const { partition, offset } of partitions) {
        if (Number(offset) >= 0 && !committed.has(keyOf(topic, partition))) carried.set(keyOf(topic, partition), offset);
      }
    }
    return carried;
  } finally {
    await admin.disconnect();
  }
}

/**
 * Seeks each newly assigned partition that has a carried offset (once: the entry is used up, so
 * a later rebalance never moves the partition back). Called on GROUP_JOIN, before the first fetch
 * of the assignment, which is where kafkajs applies a seek.
 */
export function seekCarriedOffsets(consumer: Consumer, carried: CarriedOffsets, assignment: Record<string, number[]>): void {
  for (const [topic, partitions] of Object.entries(assignment)) {
    for (const partition of partitions) {
      const offset = carried.get(keyOf(topic, partition));
      if (offset === undefined) continue;
      carried.delete(keyOf(topic, partition));
      consumer.seek({ topic, partition, offset });
    }
  }
}
