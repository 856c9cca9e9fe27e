import { defineCounter, defineGauge } from '@erp/observability';
import type { EventConsumerStatus } from '../consumer/event-consumer';
import type { OutboxBacklog } from '../outbox/outbox-backlog';

/**
 * Where each service's outbox backlog is read from at scrape time. Keyed by service, so a test
 * process that boots several services reports each one under its own label.
 */
const backlogSources = new Map<string, () => Promise<OutboxBacklog>>();

const outboxPending = defineGauge({
  name: 'outbox_pending_events',
  help: 'Outbox rows committed but not yet published to Kafka',
  labelNames: ['service'] as const,
  async collect() {
    await collectBacklogsOnce();
  },
});

const outboxOldestAge = defineGauge({
  name: 'outbox_oldest_pending_age_seconds',
  help: 'Age of the oldest unpublished outbox row (0 when none is pending)',
  labelNames: ['service'] as const,
  async collect() {
    await collectBacklogsOnce();
  },
});

/** Messages a consumer group has not handled yet, per partition, as of its last fetched batch. */
export const consumerLag = defineGauge({
  name: 'kafka_consumer_lag_messages',
  help: 'High watermark minus the next offset the group will handle, per partition',
  labelNames: ['group', 'topic', 'partition'] as const,
});

/**
 * Both gauges are filled by one query per service. A scrape collects every metric at once, so
 * both gauges wait for the same query: before, the age gauge was read while the query that sets
 * it was still running, and showed the previous scrape's value (none at all on the first one).
 */
let collecting: Promise<void> | undefined;
function collectBacklogsOnce(): Promise<void> {
  collecting ??= collectBacklogs().finally(() => {
    collecting = undefined;
  });
  return collecting;
}

async function collectBacklogs(): Promise<void> {
  await Promise.all(
    [...backlogSources].map(async ([service, read]) => {
      try {
        const backlog = await read();
        outboxPending.set({ service }, backlog.pending);
        outboxOldestAge.set({ service }, (backlog.oldestPendingAgeMs ?? 0) / 1000);
      } catch {
        // The database is unreachable: leave the last values; readiness reports the outage.
      }
    }),
  );
}

/** Reports a service's outbox backlog on /metrics; returns the function that stops reporting it. */
export function reportOutboxBacklog(service: string, read: () => Promise<OutboxBacklog>): () => void {
  backlogSources.set(service, read);
  return () => {
    if (backlogSources.get(service) === read) backlogSources.delete(service);
  };
}

/** Where each service's consumer statuses are read from at scrape time (its event transport). */
const consumerStatusSources = new Map<string, () => EventConsumerStatus[]>();

/**
 * Messages each consumer group parked on its dead-letter topic since the process started. Read
 * from the consumers' own count at scrape time (a counter: a restart starts it at 0 again, which
 * `increase()` handles), so nothing but the consumer has to count.
 */
export const consumerDeadLetters = defineCounter({
  name: 'kafka_consumer_dead_letters_total',
  help: 'Messages the consumer group dead-lettered (parked on <topic>.dlq) since the process started',
  labelNames: ['group'] as const,
  collect() {
    const counts = new Map<string, number>();
    for (const read of consumerStatusSources.values()) {
      for (const status of read()) counts.set(status.groupId, (counts.get(status.groupId) ?? 0) + status.deadLettered);
    }
    this.reset();
    for (const [group, count] of counts) this.inc({ group }, count);
  },
});

/** Reports a service's consumers on /metrics; returns the function that stops reporting them. */
export function reportConsumerStatuses(service: string, read: () => EventConsumerStatus[]): () => void {
  consumerStatusSources.set(service, read);
  return () => {
    if (consumerStatusSources.get(service) === read) consumerStatusSources.delete(service);
  };
}
