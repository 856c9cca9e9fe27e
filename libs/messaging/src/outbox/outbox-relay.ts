import { type Admin, type Kafka, type Message, Partitioners, type Producer } from 'kafkajs';
import pg, { type ClientBase, type ClientConfig } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import {
  BackgroundLoop,
  type BackoffOptions,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  IDLE_IN_TRANSACTION_TIMEOUT_MS,
  type LoopContext,
  queryRows,
  runAsService,
  type StepOutcome,
  transactionScopedClient,
  withTimeout,
} from '@erp/database';
import { errorMessage, type ServiceLogger, SILENT_LOGGER, traceCarrierFrom } from '@erp/observability';
import { kafkaTraceHeaders } from '../tracing/message-tracing';
import { OUTBOX_CHANNEL } from './outbox';

export interface OutboxRelayOptions {
  kafka: Kafka;
  /**
   * The service's database (a URL or pg config), for the relay's own connection: each round is
   * one transaction on it, so a transaction-mode pooler may stand in between.
   */
  database: string | ClientConfig;
  /**
   * A real server session for the LISTEN that wakes the relay at each commit (DATABASE_SESSION_URL).
   * Default: `database`. Behind a transaction-mode pooler without one, wake-ups may be lost and the
   * relay publishes within `pollIntervalMs` instead.
   */
  listenSession?: string | ClientConfig;
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
  /** This replica held the relay lock in its last round and published (others stand by). */
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
 * One relay per database publishes at a time: each round runs in a transaction that first takes
 * this transaction-level advisory lock (or stands by when another replica holds it), and reads,
 * publishes and marks its batch before it commits. Per-aggregate order needs a single publisher
 * (two relays reading the same pending rows would interleave them); the next round, whichever
 * replica runs it, reads after the last one committed. A transaction's lock works behind a
 * transaction-mode pooler (a session lock would stay on a server session others then use), needs
 * no extra infrastructure, ends with the holder (crash, network), and, like all advisory locks,
 * is scoped to the database, so services never contend. The number is arbitrary but fixed.
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
 *   session only LISTENs: each round is a transaction on the relay's own connection).
 * - Idempotent producer, acks from all in-sync replicas, one request in flight: a retried send
 *   can neither duplicate nor reorder messages of one partition, and the key
 *   `<companyId>:<aggregateId>` puts each aggregate on one partition.
 * - When Kafka is down, sends fail and are retried with exponential backoff; the rows wait, and
 *   writes to the database keep succeeding. A row is marked only after Kafka acknowledged it, so
 *   a crash in between republishes it (at-least-once; consumers deduplicate on the event id).
 */
export class OutboxRelay {
  private readonly options: Required<Omit<OutboxRelayOptions, 'logger' | 'listenSession'>>;
  private readonly logger: ServiceLogger;
  private readonly loop: BackgroundLoop;
  /** One connection: a round is one transaction, and rounds never overlap. */
  private pool?: pg.Pool;
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
      // Only the wake-up needs a session; the work runs in transactions on the pool.
      listen: { channel: OUTBOX_CHANNEL, connection: options.listenSession ?? this.options.database },
      onError: (error, failures) => this.onFailure(error, failures),
      drain: (context) => this.flush(context),
      stopTimeoutMs: this.options.shutdownFlushTimeoutMs,
    });
  }

  /** Starts publishing in the background; never throws (failures are retried and reported). */
  start(): void {
    const settings = typeof this.options.database === 'string' ? { connectionString: this.options.database } : this.options.database;
    this.pool ??= new pg.Pool({
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      ...settings,
      max: 1,
      Client: transactionScopedClient({
        statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS,
        idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_TIMEOUT_MS,
      }),
    });
    // A connection the server ends while idle in the pool is replaced at the next round.
    this.pool.on('error', () => undefined);
    this.loop.start();
  }

  /**
   * Stops: lets the current round finish, publishes what is still pending for up to
   * `shutdownFlushTimeoutMs` (rows left over wait for the next start or another replica), then
   * disconnects from Kafka and closes its connection and LISTEN session.
   */
  async stop(): Promise<void> {
    if (!this.loop.running) return;
    // The loop drains (flush) only once its last round has ended, so this replica never runs two
    // rounds at once (the relay lock keeps other replicas' rounds apart).
    await this.loop.stop();
    this.state.active = false;
    await this.disconnectKafka();
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  /** Wakes the relay now (it also wakes on its own for every commit that added an event). */
  wake(): void {
    this.loop.wake();
  }

  status(): OutboxRelayStatus {
    return { ...this.state };
  }

  /** The pending rows, for metrics (on the relay's own connection). */
  async backlog(): Promise<OutboxBacklog> {
    if (!this.pool) throw new Error('outbox relay: not started');
    const { rows } = await this.pool.query<BacklogRow>(BACKLOG_SQL);
    return backlogOf(rows);
  }

  /** One round: a batch published under the relay lock, or standing by while another replica holds it. */
  private async step(context: LoopContext): Promise<StepOutcome> {
    await this.ensureProducer();
    const published = await this.underRelayLock((client) => this.publishBatch(client));
    if (published === undefined) {
      // Standing by: keep the readiness view of Kafka current, and try for the lock now and then
      // (not on every commit the active replica publishes).
      await this.probeIfDue();
      return 'pause';
    }
    if (published === this.options.batchSize) return 'more';
    await this.cleanupIfDue(context.signal);
    await this.probeIfDue();
    return 'idle';
  }

  /**
   * Runs `work` in one transaction holding the relay lock, as the service (across companies);
   * undefined, without running it, when another replica holds the lock. A failure inside `work`
   * that it wants kept (the attempt counts of a failed send) is committed before it is rethrown.
   */
  private underRelayLock<T>(work: (client: ClientBase) => Promise<T>): Promise<T | undefined> {
    return runAsService(async () => {
      if (!this.pool) throw new Error('outbox relay: not started');
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [OUTBOX_RELAY_LOCK_KEY]);
        if (rows[0]?.locked !== true) {
          await client.query('ROLLBACK');
          this.setActive(false);
          return undefined;
        }
        this.setActive(true);
        try {
          const result = await work(client);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('COMMIT');
          throw error;
        }
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  private setActive(active: boolean): void {
    if (active && !this.state.active) this.logger.log('outbox relay: active (holds the relay lock of this database)');
    this.state.active = active;
  }

  private async onFailure(error: unknown, consecutiveFailures: number): Promise<void> {
    this.state.failures++;
    this.state.lastError = errorMessage(error);
    // A producer that keeps failing may hold a stale producer id or epoch; start afresh.
    if (consecutiveFailures % 3 === 0 || isNonRetriable(error)) await this.dropProducer();
  }

  private async publishBatch(client: ClientBase): Promise<number> {
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
    if (!this.state.kafkaConnected) return;
    while (!context.signal.aborted) {
      const published = await this.underRelayLock((client) => this.publishBatch(client));
      // Nothing left, or another replica publishes it.
      if (!published) return;
    }
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

  private async cleanupIfDue(signal: AbortSignal): Promise<void> {
    if (!this.pool || this.options.retentionMs <= 0 || Date.now() - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = Date.now();
    for (;;) {
      const result = await this.pool.query(
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

