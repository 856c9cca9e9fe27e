import { type Admin, type Kafka, type Message, Partitioners, type Producer } from 'kafkajs';
import type { Client, ClientConfig } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { BackgroundLoop, type BackoffOptions, type LoopContext, queryRows, type StepOutcome, withTimeout } from '@erp/database';
import { errorMessage, type ServiceLogger, SILENT_LOGGER, traceCarrierFrom } from '@erp/observability';
import { kafkaTraceHeaders } from '../tracing/message-tracing';
import { OUTBOX_CHANNEL } from './outbox';

export interface OutboxRelayOptions {
  kafka: Kafka;
  /**
   * The relay's own database session (a URL or pg config for the service's database). It holds
   * the advisory lock and the LISTEN, and reads and marks the rows, so losing it loses the lock
   * and stops this replica publishing at the same moment.
   */
  database: string | ClientConfig;
  logger?: ServiceLogger;
  /**
   * Fallback poll while idle, in ms. Commits wake the relay through NOTIFY at once; the poll only
   * covers a lost notification (the session was reconnecting) and lets a standby replica try to
   * take over. Default 5000.
   */
  pollIntervalMs?: number;
  /** Rows published per round trip. Default 200. */
  batchSize?: number;
  /** Backoff while Kafka or the database fails. Default 250 ms doubling to 5 s. */
  retry?: BackoffOptions;
  /** How long `stop()` keeps publishing what is pending. Default 5000 ms. */
  shutdownFlushTimeoutMs?: number;
  /** Published rows are deleted after this long. Default 7 days; 0 keeps them. */
  retentionMs?: number;
  /** While idle, check Kafka answers at most this often (feeds the readiness check). Default 10 s. */
  probeIntervalMs?: number;
}

export interface OutboxRelayStatus {
  /** This replica holds the lock and publishes (others stand by). */
  active: boolean;
  /** The producer is connected and Kafka answered the last request. */
  kafkaConnected: boolean;
  /** Kafka answered at least once since start. */
  kafkaEverConnected: boolean;
  /** Events published by this replica since start. */
  published: number;
  /** Failed publish rounds since start. */
  failures: number;
  lastError?: string;
  lastPublishedAt?: Date;
}

export interface OutboxBacklog {
  /** Rows not yet published. */
  pending: number;
  /** Age of the oldest of them, in ms (null when none). */
  oldestPendingAgeMs: number | null;
}

interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  event_type: string;
  payload: string;
  created_ms: string;
  trace_context: unknown;
}

/**
 * One relay per database publishes: a session-level advisory lock elects it. Per-aggregate
 * order needs a single publisher (two relays reading the same pending rows would interleave
 * them), and the lock needs no extra infrastructure, fails over on its own when the holder's
 * session ends (crash, network), and, like all advisory locks, is scoped to the database, so
 * services never contend. The number is arbitrary but fixed.
 */
export const OUTBOX_RELAY_LOCK_KEY = 7_301_954_217;

const DEFAULTS = {
  pollIntervalMs: 5_000,
  batchSize: 200,
  // At most 5 s between tries: a broker or database back after an outage is used within seconds
  // (with 30 s, a 30 s outage left events waiting up to half a minute more).
  retry: { initialMs: 250, maxMs: 5_000 },
  shutdownFlushTimeoutMs: 5_000,
  retentionMs: 7 * 24 * 3_600_000,
  probeIntervalMs: 10_000,
};
const CLEANUP_INTERVAL_MS = 10 * 60_000;
const CLEANUP_BATCH = 5_000;
const MAX_ERROR_LENGTH = 2_000;

/**
 * Publishes outbox rows to Kafka, in sequence order, and marks them published.
 *
 * - Wakes on the NOTIFY that `Outbox.add` queues (delivered at commit), so publish latency is a
 *   few milliseconds, with a slow poll as fallback (a `BackgroundLoop` of @erp/database, whose
 *   session is also the one that holds the lock).
 * - Idempotent producer, acks from all in-sync replicas, one request in flight: a retried send
 *   can neither duplicate nor reorder messages of one partition, and the key
 *   `<companyId>:<aggregateId>` puts each aggregate on one partition.
 * - When Kafka is down, sends fail and are retried with exponential backoff; the rows wait, and
 *   writes to the database keep succeeding. A row is marked only after Kafka acknowledged it, so
 *   a crash in between republishes it (at-least-once; consumers deduplicate on the event id).
 */
export class OutboxRelay {
  private readonly options: Required<Omit<OutboxRelayOptions, 'logger'>>;
  private readonly logger: ServiceLogger;
  private readonly loop: BackgroundLoop;
  private producer?: Producer;
  private admin?: Admin;
  private lastKafkaContact = 0;
  private lastCleanup = 0;
  private readonly state: OutboxRelayStatus = {
    active: false,
    kafkaConnected: false,
    kafkaEverConnected: false,
    published: 0,
    failures: 0,
  };

  constructor(options: OutboxRelayOptions) {
    this.logger = options.logger ?? SILENT_LOGGER;
    this.options = {
      kafka: options.kafka,
      database: options.database,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      batchSize: options.batchSize ?? DEFAULTS.batchSize,
      retry: options.retry ?? DEFAULTS.retry,
      shutdownFlushTimeoutMs: options.shutdownFlushTimeoutMs ?? DEFAULTS.shutdownFlushTimeoutMs,
      retentionMs: options.retentionMs ?? DEFAULTS.retentionMs,
      probeIntervalMs: options.probeIntervalMs ?? DEFAULTS.probeIntervalMs,
    };
    this.loop = new BackgroundLoop({
      name: 'outbox relay',
      logger: this.logger,
      step: (context) => this.step(context),
      pollIntervalMs: this.options.pollIntervalMs,
      retry: this.options.retry,
      // The relay's one session: it LISTENs, holds the lock, and reads and marks the rows.
      listen: { channel: OUTBOX_CHANNEL, connection: this.options.database, onLost: () => this.onSessionLost() },
      onError: (error, failures) => this.onFailure(error, failures),
      drain: (context) => this.flush(context),
      stopTimeoutMs: this.options.shutdownFlushTimeoutMs,
    });
  }

  /** Starts publishing in the background; never throws (failures are retried and reported). */
  start(): void {
    this.loop.start();
  }

  /**
   * Stops: lets the current round finish, publishes what is still pending for up to
   * `shutdownFlushTimeoutMs` (rows left over wait for the next start or another replica), then
   * disconnects from Kafka and ends the session, which releases the lock.
   */
  async stop(): Promise<void> {
    if (!this.loop.running) return;
    // The loop drains (flush) only once its last round has ended: two rounds at once would send
    // the same rows twice. Closing its session releases the lock.
    await this.loop.stop();
    this.state.active = false;
    await this.disconnectKafka();
  }

  /** Wakes the relay now (it also wakes on its own for every commit that added an event). */
  wake(): void {
    this.loop.wake();
  }

  status(): OutboxRelayStatus {
    return { ...this.state };
  }

  /** The pending rows, for metrics (from the relay's own session). */
  async backlog(): Promise<OutboxBacklog> {
    const session = this.loop.currentSession();
    if (!session) throw new Error('outbox relay: no database session');
    const { rows } = await session.query<BacklogRow>(BACKLOG_SQL);
    return backlogOf(rows);
  }

  /** One round: take the lock if this replica stands by, then publish a batch. */
  private async step(context: LoopContext): Promise<StepOutcome> {
    const session = await context.session();
    const active = this.state.active || (await this.tryLock(session));
    await this.ensureProducer();
    if (!active) {
      // Standing by: keep the readiness view of Kafka current, and try for the lock now and then
      // (not on every commit the active replica publishes).
      await this.probeIfDue();
      return 'pause';
    }
    const published = await this.publishBatch(session);
    if (published === this.options.batchSize) return 'more';
    await this.cleanupIfDue(session, context.signal);
    await this.probeIfDue();
    return 'idle';
  }

  private async onFailure(error: unknown, consecutiveFailures: number): Promise<void> {
    this.state.failures++;
    this.state.lastError = errorMessage(error);
    // A producer that keeps failing may hold a stale producer id or epoch; start afresh.
    if (consecutiveFailures % 3 === 0 || isNonRetriable(error)) await this.dropProducer();
  }

  private async publishBatch(client: Client): Promise<number> {
    const { rows } = await client.query<OutboxRow>(
      `SELECT id, topic, message_key, event_type, payload::text AS payload,
              (extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms, trace_context
         FROM outbox WHERE published_at IS NULL ORDER BY sequence LIMIT $1`,
      [this.options.batchSize],
    );
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    try {
      await this.requireProducer().sendBatch({ acks: -1, topicMessages: topicMessagesOf(rows) });
    } catch (error) {
      this.state.kafkaConnected = false;
      await client
        .query(`UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::uuid[])`, [
          ids,
          errorMessage(error).slice(0, MAX_ERROR_LENGTH),
        ])
        .catch(() => undefined);
      throw error;
    }
    this.markKafkaUp();
    await client.query(
      `UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    this.state.published += rows.length;
    this.state.lastPublishedAt = new Date();
    return rows.length;
  }

  /** At stop, once the last round has ended: publishes what is pending until the stop deadline. */
  private async flush(context: LoopContext): Promise<void> {
    if (!this.state.active || !this.state.kafkaConnected) return;
    const session = await context.session();
    while (!context.signal.aborted) {
      if ((await this.publishBatch(session)) === 0) return;
    }
  }

  /** The lock went with the session (the loop has logged the loss); another replica may take over. */
  private onSessionLost(): void {
    if (this.state.active) this.logger.warn('outbox relay: no longer active: the relay lock was released with the session');
    this.state.active = false;
  }

  /**
   * Takes the relay lock on the session if no other session holds it. Called only while not
   * active: session locks stack, and one taken twice would need two unlocks.
   */
  private async tryLock(session: Client): Promise<boolean> {
    const { rows } = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [OUTBOX_RELAY_LOCK_KEY]);
    const locked = rows[0]?.locked === true;
    if (locked) this.logger.log('outbox relay: active (holds the relay lock of this database)');
    this.state.active = locked;
    return locked;
  }

  private async ensureProducer(): Promise<void> {
    if (this.producer) return;
    const producer = this.options.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      // Java-compatible murmur2 on the key: the same key lands on the same partition as with
      // any other Kafka client.
      createPartitioner: Partitioners.DefaultPartitioner,
      // Short: the relay's own backoff takes over when Kafka stays down.
      retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1_000 },
    });
    try {
      await producer.connect();
    } catch (error) {
      this.state.kafkaConnected = false;
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    this.producer = producer;
    this.markKafkaUp();
  }

  private async dropProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    this.state.kafkaConnected = false;
    await producer?.disconnect().catch(() => undefined);
  }

  /** While idle, asks Kafka for cluster metadata now and then, so readiness notices an outage. */
  private async probeIfDue(): Promise<void> {
    if (Date.now() - this.lastKafkaContact < this.options.probeIntervalMs) return;
    this.lastKafkaContact = Date.now();
    try {
      await withTimeout(this.describeCluster(), 3_000, 'Kafka did not answer a metadata request in time');
      this.markKafkaUp();
    } catch (error) {
      if (this.state.kafkaConnected) this.logger.warn(`outbox relay: Kafka does not answer: ${errorMessage(error)}`);
      this.state.kafkaConnected = false;
      const admin = this.admin;
      this.admin = undefined;
      await admin?.disconnect().catch(() => undefined);
    }
  }

  private async describeCluster(): Promise<void> {
    if (!this.admin) {
      const admin = this.options.kafka.admin();
      this.admin = admin;
      await admin.connect();
    }
    await this.admin.describeCluster();
  }

  private async cleanupIfDue(client: Client, signal: AbortSignal): Promise<void> {
    if (this.options.retentionMs <= 0 || Date.now() - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = Date.now();
    for (;;) {
      const result = await client.query(
        `DELETE FROM outbox WHERE id IN (
           SELECT id FROM outbox WHERE published_at < now() - make_interval(secs => $1::float8 / 1000) LIMIT $2)`,
        [this.options.retentionMs, CLEANUP_BATCH],
      );
      if ((result.rowCount ?? 0) < CLEANUP_BATCH || signal.aborted) return;
    }
  }

  private markKafkaUp(): void {
    if (!this.state.kafkaConnected && this.state.kafkaEverConnected) this.logger.log('outbox relay: Kafka answers again');
    this.state.kafkaConnected = true;
    this.state.kafkaEverConnected = true;
    this.lastKafkaContact = Date.now();
  }

  private async disconnectKafka(): Promise<void> {
    await this.dropProducer();
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = undefined;
  }

  private requireProducer(): Producer {
    if (!this.producer) throw new Error('outbox relay: producer not connected');
    return this.producer;
  }
}

/** Pending rows and the age of the oldest, for metrics; on any session of the service's database. */
export async function outboxBacklog(executor: DataSource | EntityManager): Promise<OutboxBacklog> {
  return backlogOf(await queryRows<BacklogRow>(executor, BACKLOG_SQL));
}

interface BacklogRow {
  pending: string;
  oldest_ms: string | null;
}

const BACKLOG_SQL = `SELECT count(*)::text AS pending,
    (extract(epoch FROM now() - min(created_at)) * 1000)::bigint::text AS oldest_ms
  FROM outbox WHERE published_at IS NULL`;

function backlogOf(rows: BacklogRow[]): OutboxBacklog {
  const row = rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    oldestPendingAgeMs: row?.oldest_ms == null ? null : Math.max(0, Number(row.oldest_ms)),
  };
}

/** Groups rows by topic, keeping sequence order within each topic (and so within each key). */
function topicMessagesOf(rows: OutboxRow[]): Array<{ topic: string; messages: Message[] }> {
  const byTopic = new Map<string, Message[]>();
  for (const row of rows) {
    const messages = byTopic.get(row.topic) ?? [];
    messages.push({
      key: row.message_key,
      value: row.payload,
      timestamp: row.created_ms,
      headers: {
        'event-id': row.id,
        'event-type': row.event_type,
        'content-type': 'application/json',
        // W3C traceparent/tracestate of the change, when it was traced (consumers continue it).
        ...kafkaTraceHeaders(traceCarrierFrom(row.trace_context)),
      },
    });
    byTopic.set(row.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

function isNonRetriable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retriable?: boolean }).retriable === false;
}

