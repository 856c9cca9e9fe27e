import type { Kafka } from 'kafkajs';

export interface EnsureTopicsOptions {
  /** Partitions of topics created here. Default 3. */
  numPartitions?: number;
  /** Default -1 (the cluster's default.replication.factor). */
  replicationFactor?: number;
}

/**
 * Creates the topics that do not exist yet; existing ones are left as they are. Production
 * clusters get their topics from infrastructure code (partitions, replication, retention are an
 * operations decision); this is for tests, the benchmark and local runs against a cluster that
 * does not create topics on first use.
 */
export async function ensureTopics(kafka: Kafka, topics: string[], options: EnsureTopicsOptions = {}): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = [...new Set(topics)].filter((topic) => !existing.has(topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: options.numPartitions ?? 3,
        replicationFactor: options.replicationFactor ?? -1,
      })),
    });
  } finally {
    await admin.disconnect();
  }
}
