import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { TOPICS } from '@erp/contracts';
import { createDataSource, dropDatabase, ensureDatabase, runMigrations } from '@erp/database';
import {
  createKafka,
  ensureTopics,
  EventConsumer,
  MESSAGING_MIGRATIONS,
  Outbox,
  OutboxRelay,
  prefixedTopic,
} from '@erp/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type LatencySummary, summarize } from './latency-stats';

export interface OutboxLatencyOptions {
  /** Superuser URL of the PostgreSQL server; the bench creates and drops its own database. */
  databaseServerUrl: string;
  brokers: string[];
  /** Shown in the result: `dev-broker` or `kafka`. */
  brokerKind: string;
  /** Events of the paced latency phase. Default 2000. */
  latencyEvents?: number;
  /** Commit rate of the latency phase, events/s. Default 200. */
  rate?: number;
  /** Events of the throughput phase (committed as fast as the writers can). Default 5000. */
  throughputEvents?: number;
  /** Concurrent writing transactions. Default 8. */
  writers?: number;
  /** Distinct aggregates the events are spread over. Default 200. */
  aggregates?: number;
  /** Partitions handled in parallel by the consumer (the topic has 3). Default 3. */
  consumerConcurrency?: number;
  /** Database name; default `bench_outbox_<random>` (tests pass a "test"-marked one). */
  databaseName?: string;
  log?: (line: string) => void;
}

export interface OutboxLatencyResult {
  scenario: 'outbox-latency';
  broker: string;
  /** Commit of the writing transaction -> the consumer's handler is called with the event. */
  latency: LatencySummary & { ratePerSecond: number };
  /**
   * The relay's share of it: the writing transaction's start (`created_at`) -> Kafka acknowledged
   * and the row marked (`published_at`), from the outbox table.
   */
  publish: LatencySummary;
  throughput: { events: number; seconds: number; eventsPerSecond: number };
  settings: { writers: number; aggregates: number; consumerConcurrency: number; relayBatchSize: number };
}

/** The state the bench's "use case" changes: a counter per aggregate. */
class CreateBenchAggregates1763800000200 implements MigrationInterface {
  name = 'CreateBenchAggregates1763800000200';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE bench_aggregates (id varchar(30) PRIMARY KEY, version bigint NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bench_aggregates`);
  }
}

const COMPANY = '1000001';
const RELAY_BATCH_SIZE = 200;

/**
 * Measures the event path a service change takes: a transaction changes an aggregate and adds a
 * CUSTOMER_UPDATED event through the outbox; the relay (woken by NOTIFY) publishes it; an
 * EventConsumer (validation, processed_events record, handler transaction, offset commit) hands it
 * to a handler. Phase 1 commits at a steady rate and reports commit-to-handler latency; phase 2
 * commits as fast as the writers can and reports end-to-end events/s.
 */
export async function runOutboxLatencyBench(options: OutboxLatencyOptions): Promise<OutboxLatencyResult> {
  const log = options.log ?? (() => undefined);
  const writers = options.writers ?? 8;
  const aggregates = options.aggregates ?? 200;
  const consumerConcurrency = options.consumerConcurrency ?? 3;
  const name = options.databaseName ?? `bench_outbox_${randomBytes(4).toString('hex')}`;
  const url = await ensureDatabase(options.databaseServerUrl, name);
  const dataSource = createDataSource({
    url,
    entities: [],
    migrations: [...MESSAGING_MIGRATIONS, CreateBenchAggregates1763800000200],
    applicationName: 'bench-outbox',
    poolSize: writers + 4,
  });
  const prefix = `bench.${randomBytes(4).toString('hex')}.`;
  const kafka = createKafka({ brokers: options.brokers, clientId: 'bench-outbox', logLevel: 'error', logger: benchLogger(log) });
  const topic = prefixedTopic(prefix, TOPICS.customers);
  const committedAt = new Map<string, number>();
  // A tracked event can reach the consumer before the writer's code runs again after its commit
  // (the relay is woken at commit; on a busy machine the continuation waits). Such an event is
  // remembered here and counted, with a latency of 0, once the writer records its commit.
  const awaitingCommit = new Set<string>();
  const arrivedBeforeRecorded = new Set<string>();
  const latencies: number[] = [];
  let handled = 0;
  let onHandled: (() => void) | undefined;

  const relay = new OutboxRelay({ kafka, database: url, batchSize: RELAY_BATCH_SIZE });
  const consumer = new EventConsumer({
    kafka,
    dataSource,
    groupId: `bench-outbox-${randomBytes(4).toString('hex')}`,
    topicPrefix: prefix,
    partitionsConsumedConcurrently: consumerConcurrency,
    maxWaitTimeInMs: 100,
    subscriptions: [
      {
        topic: TOPICS.customers,
        handler: async (event) => {
          const at = performance.now();
          const committed = committedAt.get(event.id);
          if (committed !== undefined) latencies.push(Math.max(0, at - committed));
          else if (awaitingCommit.has(event.id)) arrivedBeforeRecorded.add(event.id);
          handled++;
          onHandled?.();
        },
      },
    ],
  });

  try {
    await runMigrations(dataSource);
    await ensureTopics(kafka, [topic]);
    relay.start();
    consumer.start();
    await consumer.ready();
    const outbox = new Outbox({ source: 'bench', topicPrefix: prefix });
    let sequence = 0;
    const change = async (trackLatency: boolean) => {
      const aggregate = `A${(sequence++ % aggregates).toString().padStart(5, '0')}`;
      const event = await dataSource.transaction(async (tx) => {
        const [row] = await tx.query<Array<{ version: string }>>(
          `INSERT INTO bench_aggregates (id, version) VALUES ($1, 1)
           ON CONFLICT (id) DO UPDATE SET version = bench_aggregates.version + 1 RETURNING version::text`,
          [aggregate],
        );
        const added = await outbox.add(tx, {
          type: 'CUSTOMER_UPDATED',
          companyId: COMPANY,
          subject: aggregate,
          data: customerData(aggregate, row?.version ?? '1'),
        });
        if (trackLatency) awaitingCommit.add(added.id);
        return added;
      });
      if (!trackLatency) return;
      awaitingCommit.delete(event.id);
      if (arrivedBeforeRecorded.delete(event.id)) latencies.push(0);
      else committedAt.set(event.id, performance.now());
    };
    const waitForHandled = (count: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${handled} of ${count} events arrived`)), timeoutMs);
        const check = () => {
          if (handled >= count) {
            clearTimeout(timer);
            onHandled = undefined;
            resolve();
          }
        };
        onHandled = check;
        check();
      });

    // Warm-up: connections, metadata, JIT.
    for (let i = 0; i < 50; i++) await change(false);
    await waitForHandled(50, 30_000);

    const latencyEvents = options.latencyEvents ?? 2_000;
    const rate = options.rate ?? 200;
    log(`latency phase: ${latencyEvents} events at ${rate}/s`);
    const started = performance.now();
    const pending: Array<Promise<void>> = [];
    for (let i = 0; i < latencyEvents; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(change(true));
      if (pending.length >= writers) await pending.shift();
    }
    await Promise.all(pending);
    await waitForHandled(50 + latencyEvents, 60_000);

    const throughputEvents = options.throughputEvents ?? 5_000;
    log(`throughput phase: ${throughputEvents} events, ${writers} writers`);
    const before = handled;
    const burstStart = performance.now();
    let issued = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (issued < throughputEvents) {
          issued++;
          await change(false);
        }
      }),
    );
    await waitForHandled(before + throughputEvents, 120_000);
    const seconds = (performance.now() - burstStart) / 1000;
    const published = await dataSource.query<Array<{ id: string; ms: number }>>(
      `SELECT id, extract(epoch FROM published_at - created_at) * 1000 AS ms FROM outbox WHERE published_at IS NOT NULL`,
    );
    const publishLatencies = published.filter((row) => committedAt.has(row.id)).map((row) => Number(row.ms));

    return {
      scenario: 'outbox-latency',
      broker: options.brokerKind,
      latency: { ...summarize(latencies), ratePerSecond: rate },
      publish: summarize(publishLatencies),
      throughput: {
        events: throughputEvents,
        seconds: Math.round(seconds * 100) / 100,
        eventsPerSecond: Math.round(throughputEvents / seconds),
      },
      settings: { writers, aggregates, consumerConcurrency, relayBatchSize: RELAY_BATCH_SIZE },
    };
  } finally {
    await consumer.stop();
    await relay.stop();
    if (dataSource.isInitialized) await dataSource.destroy();
    await dropDatabase(options.databaseServerUrl, name);
  }
}

/** One markdown table row of a result. */
export function markdownLine(result: OutboxLatencyResult): string {
  const l = result.latency;
  return `| outbox commit → consumer (${result.broker}) | p50 ${l.p50Ms} ms | p99 ${l.p99Ms} ms | max ${l.maxMs} ms at ${l.ratePerSecond}/s (publish p50 ${result.publish.p50Ms} ms) | ${result.throughput.eventsPerSecond} events/s |`;
}

function customerData(number: string, version: string) {
  return {
    number,
    name: `Bench customer ${number}`,
    status: 'Active' as const,
    currencyId: 'NOK',
    version,
    lastModifiedDateTime: new Date().toISOString().slice(0, 23),
    link: `/v1/customer/${number}`,
  };
}

function benchLogger(log: (line: string) => void) {
  return { debug: () => undefined, log: () => undefined, warn: log, error: log };
}
