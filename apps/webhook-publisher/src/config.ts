import { Transform } from 'class-transformer';
import { toInt } from '@erp/bootstrap';
import { IsIn, IsInt, IsNumber, Matches, Max, Min } from 'class-validator';
import { KafkaServiceConfig } from '@erp/messaging';
import { DURATION_LIST } from './delivery/retry-schedule';


export class WebhookPublisherConfig extends KafkaServiceConfig {
  override PORT = 3106;

  /**
   * Allow subscription URLs whose host is (or resolves to) a private, loopback or link-local
   * address. Off in production (SSRF); `npm start` and the tests turn it on.
   */
  @IsIn(['true', 'false'])
  WEBHOOKS_ALLOW_PRIVATE_TARGETS = 'false';

  /**
   * Pauses before each retry, comma-separated durations (`ms`, `s`, `m`, `h`, `d`); the number
   * of entries is the number of retries. Default: about three days (API.md).
   */
  @Matches(DURATION_LIST, { message: 'WEBHOOKS_RETRY_SCHEDULE must be durations such as 5s,5m,30m,2h' })
  WEBHOOKS_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

  /** Each pause is stretched or shrunk at random by up to this fraction (spreads retry storms). */
  @Transform(toInt)
  @IsNumber()
  @Min(0)
  @Max(1)
  WEBHOOKS_RETRY_JITTER = 0.2;

  /** Whole-request timeout of one delivery attempt. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  WEBHOOKS_TIMEOUT_MS = 15_000;

  /** Deliveries in flight at once in this process. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOKS_CONCURRENCY = 32;

  /** How often the worker looks for due deliveries when nothing woke it. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  WEBHOOKS_POLL_INTERVAL_MS = 1_000;

  /**
   * A claimed delivery is invisible to other workers this long; if the claiming process dies,
   * it becomes due again afterwards (at-least-once). Must exceed the timeout.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  WEBHOOKS_LEASE_MS = 60_000;

  /** Longest `Retry-After` honoured; longer values are cut to it. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  WEBHOOKS_MAX_RETRY_AFTER_MS = 24 * 3_600_000;

  /** A subscription whose deliveries have failed (without one success) this long is disabled. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOKS_DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;

  /**
   * Events older than this (with their deliveries and attempts) are deleted once nothing is
   * pending for them; replay reaches back this far. 0 keeps everything.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  WEBHOOKS_EVENT_RETENTION_DAYS = 30;

  /** After rotate-secret, the previous secret keeps signing this long. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  WEBHOOKS_SECRET_OVERLAP_MS = 24 * 3_600_000;

  /** Run the delivery worker in this process (a pod may serve only the API). */
  @IsIn(['true', 'false'])
  WEBHOOKS_DELIVERY_WORKER = 'true';

  /** Partitions whose events are taken in at once (order holds within each partition). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WEBHOOKS_CONSUMER_PARTITIONS_CONCURRENTLY = 6;

  /**
   * Kafka consumer session timeout: how long the group waits for a member that stopped
   * heartbeating (a killed pod) before its partitions move on.
   */
  @Transform(toInt)
  @IsInt()
  @Min(3_000)
  WEBHOOKS_CONSUMER_SESSION_TIMEOUT_MS = 30_000;

  /** Consume domain events from Kafka in this process. */
  @IsIn(['true', 'false'])
  WEBHOOKS_CONSUMER = 'true';
}
