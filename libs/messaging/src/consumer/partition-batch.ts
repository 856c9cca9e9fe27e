import type { EachBatchPayload, KafkaMessage, TopicPartitionOffsetAndMetadata } from 'kafkajs';
import { consumerLag } from '../metrics/messaging-metrics';
import { traceProcess } from '../tracing/message-tracing';
import { CONSUMER_DEFAULTS, type EventConsumerOptions } from './event-consumer.options';
import type { GroupOutcome, InboxHandler } from './inbox-handler';

const COMMIT_INTERVAL_MS = 500;

/** What a partition's batch needs of its consumer. */
export interface PartitionBatchConsumer {
  options: EventConsumerOptions;
  inbox: { handler: InboxHandler; isStopping(): boolean };
  commitOffsets(offsets: TopicPartitionOffsetAndMetadata[]): Promise<void>;
}

/**
 * Handles a fetched batch of one partition in order. Each message (or group of messages, see
 * handleGroup) is handled to a final outcome (its transaction committed, or parked) before the
 * next; offsets are committed for handled
 * messages only, after their transactions, every COMMIT_INTERVAL_MS and at the end of the batch
 * (one commit round trip per message would halve throughput; a crash in between only means a
 * few redeliveries, which processed_events turns into no-ops). A message that cannot reach a
 * final outcome stops the batch: what was handled before it is committed, and kafkajs delivers
 * it again.
 */
export async function consumePartitionBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload, c: PartitionBatchConsumer): Promise<void> {
  const { topic, partition } = batch;
  let handled: string | undefined;
  let committed: string | undefined;
  let lastCommit = Date.now();
  const commit = async () => {
    if (handled === undefined || handled === committed) return;
    const offset = handled;
    await c.commitOffsets([{ topic, partition, offset: (BigInt(offset) + 1n).toString() }]);
    committed = offset;
    lastCommit = Date.now();
  };
  const keepAlive = setInterval(
    () => void heartbeat().catch(() => undefined),
    Math.max(100, Math.floor((c.options.heartbeatIntervalMs ?? CONSUMER_DEFAULTS.heartbeatIntervalMs) / 2)),
  );
  // What is left of the partition as of this fetch: the high watermark minus the next offset.
  const reportLag = (nextOffset: bigint) => {
    const lag = BigInt(batch.highWatermark) - nextOffset;
    consumerLag.set({ group: c.options.groupId, topic, partition: String(partition) }, Number(lag > 0n ? lag : 0n));
  };
  const finished = (message: KafkaMessage) => {
    resolveOffset(message.offset);
    handled = message.offset;
    reportLag(BigInt(message.offset) + 1n);
  };
  const groupSize = Math.max(1, c.options.transactionBatchSize ?? CONSUMER_DEFAULTS.transactionBatchSize);
  const messages = batch.messages;
  // Shown while the first group is still in its transaction (nothing of it is handled yet).
  if (messages.length > 0) reportLag(BigInt(messages[0].offset));
  // Messages go in groups, one transaction each (a round trip and a commit per message were
  // what bounded throughput). When a handler throws inside a group, the group rolls back; the
  // messages before the failing one are done again as a group, and the failing one goes on its
  // own with that failure counted as its first attempt, so it is retried and dead-lettered
  // exactly as if it had always been alone, and never holds back the others' effects.
  let limit = groupSize;
  let earlier: { offset: string; error: unknown } | undefined;
  try {
    for (let i = 0; i < messages.length; ) {
      // Stopping, or the partition went to another member in a rebalance: leave the rest.
      if (c.inbox.isStopping() || !isRunning() || isStale()) break;
      const alone = earlier?.offset === messages[i].offset;
      const outcome: GroupOutcome = alone ? { kind: 'single' } : await c.inbox.handler.handleGroup(topic, partition, messages.slice(i, i + limit));
      limit = groupSize;
      if (outcome.kind === 'done') {
        for (const message of messages.slice(i, i + outcome.count)) finished(message);
        i += outcome.count;
      } else if (outcome.kind === 'failed' && outcome.index > 0) {
        earlier = { offset: messages[i + outcome.index].offset, error: outcome.error };
        limit = outcome.index;
        continue;
      } else {
        const message = messages[i];
        const firstFailure = outcome.kind === 'failed' ? outcome.error : alone ? earlier?.error : undefined;
        earlier = undefined;
        // One "process" span per message when tracing is on, continuing the producer's trace.
        await traceProcess({ topic, partition, offset: message.offset, groupId: c.options.groupId, headers: message.headers }, () =>
          c.inbox.handler.handle(topic, partition, message, firstFailure),
        );
        finished(message);
        i++;
      }
      if (Date.now() - lastCommit >= COMMIT_INTERVAL_MS) await commit();
    }
  } finally {
    clearInterval(keepAlive);
    await commit();
  }
  await c.inbox.handler.cleanupIfDue();
}
