import type { Kafka } from 'kafkajs';
import type { ClientConfig } from 'pg';
import type { BackoffOptions, TransactionSettings } from '@erp/database';
import type { ServiceLogger } from '@erp/observability';

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
  /**
   * The roles of the service's DataSource (`driverSettingsOf`): the relay's transactions, in the
   * service scope, run as its service role, since the login the service connects as reads nothing
   * (docs/platform-teams.md, "Database logins"). Absent: as the login itself.
   */
  roles?: Pick<TransactionSettings, 'tenantRole' | 'serviceRole'>;
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

/** The options with every default filled in (the logger and the LISTEN session stay apart). */
export type RelaySettings = Required<Omit<OutboxRelayOptions, 'logger' | 'listenSession' | 'roles'>>;

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

export function relaySettingsOf(options: OutboxRelayOptions): RelaySettings {
  return {
    kafka: options.kafka,
    database: options.database,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
    batchSize: options.batchSize ?? DEFAULTS.batchSize,
    retry: options.retry ?? DEFAULTS.retry,
    shutdownFlushTimeoutMs: options.shutdownFlushTimeoutMs ?? DEFAULTS.shutdownFlushTimeoutMs,
    retentionMs: options.retentionMs ?? DEFAULTS.retentionMs,
    probeIntervalMs: options.probeIntervalMs ?? DEFAULTS.probeIntervalMs,
  };
}
