import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions, the events received (kept for replay), one delivery row per (subscription,
 * event) and every attempt. `webhook_events.seq` is the order events arrived in, which is the
 * order per aggregate (Kafka keeps it per key); the worker sends a delivery only when no earlier
 * delivery of the same subscription and ordering key is still pending.
 */
export class CreateWebhooks1764300000000 implements MigrationInterface {
  name = 'CreateWebhooks1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_subscriptions (
        id uuid PRIMARY KEY,
        company_id varchar(64) NOT NULL,
        publisher varchar(100) NOT NULL,
        event_types text[] NOT NULL,
        url varchar(2000) NOT NULL,
        description varchar(500),
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason varchar(300),
        secret varchar(100) NOT NULL,
        previous_secret varchar(100),
        previous_secret_expires_at timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_subscriptions_company_idx ON webhook_subscriptions (company_id, created_at, id)`);
    await q.query(`CREATE INDEX webhook_subscriptions_company_publisher_idx ON webhook_subscriptions (company_id, publisher)`);
    await q.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        company_id varchar(64) NOT NULL,
        type varchar(100) NOT NULL,
        publisher varchar(100) NOT NULL,
        ordering_key varchar(300) NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        data jsonb NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX webhook_events_seq_key ON webhook_events (seq)`);
    await q.query(`CREATE INDEX webhook_events_company_time_idx ON webhook_events (company_id, publisher, occurred_at)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        company_id varchar(64) NOT NULL,
        ordering_key varchar(300) NOT NULL,
        event_seq bigint NOT NULL,
        status varchar(12) NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        last_response_code integer,
        last_error varchar(500),
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'delivered', 'failed'))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX webhook_deliveries_subscription_event_key ON webhook_deliveries (subscription_id, event_id)`,
    );
    // The worker's two questions: what is due, and is an earlier message of the same aggregate still pending.
    await q.query(
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (subscription_id, ordering_key, event_seq) WHERE status = 'pending'`,
    );
    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        subscription_id uuid NOT NULL,
        company_id varchar(64) NOT NULL,
        event_id uuid NOT NULL,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        outcome varchar(12) NOT NULL,
        response_code integer,
        latency_ms integer NOT NULL,
        error varchar(500),
        CONSTRAINT webhook_delivery_attempts_outcome_check CHECK (outcome IN ('delivered', 'failed'))
      )`);
    await q.query(
      `CREATE INDEX webhook_delivery_attempts_subscription_idx ON webhook_delivery_attempts (subscription_id, id)`,
    );
    await q.query(`CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_events`);
    await q.query(`DROP TABLE webhook_subscriptions`);
  }
}
