import { PROCESSED_EVENTS_FILL, RUNNER_TABLES } from './messaging.workload';
import { COMPANIES, companyOf, companySql, type ServiceWorkload } from './workload';

/** Each company has two subscriptions to the customer events, so each event has two deliveries. */
const SUBSCRIPTIONS_PER_COMPANY = 2;
const subscriptionSql = (k: string) => `md5('migload-subscription-' || (${k}))::uuid`;
const since = (rows: number, i: string) => `now() - interval '30 days' + ${i} * (interval '30 days' / ${rows})`;

/**
 * webhook-publisher: the events received (kept for replay), a delivery per subscription and event,
 * and an attempt per delivery grow with the business. Its writes are the event intake (the
 * consumer's processed_events row, the event and its deliveries in one statement) and the worker's
 * record of an attempt (the delivery's state and the attempt), both as the service itself.
 */
export const WEBHOOKS_WORKLOAD: ServiceWorkload = {
  service: 'webhook-publisher',
  writesAs: 'service',
  fills: [
    PROCESSED_EVENTS_FILL,
    {
      table: 'webhook_subscriptions',
      sql: () => [
        `INSERT INTO webhook_subscriptions (id, company_id, publisher, event_types, url, secret)
         SELECT ${subscriptionSql('k')}, ${companySql('k')}, 'customers-v1', ARRAY['CUSTOMER_CREATED', 'CUSTOMER_UPDATED'],
                'https://hooks.example.com/' || k, 'whsec_' || md5(k::text)
         FROM generate_series(0, ${COMPANIES * SUBSCRIPTIONS_PER_COMPANY - 1}) k`,
      ],
    },
    {
      table: 'webhook_events',
      sql: (rows) => [
        `INSERT INTO webhook_events (id, seq, company_id, type, publisher, ordering_key, occurred_at, received_at, data)
         OVERRIDING SYSTEM VALUE
         SELECT md5('migload-event-' || i)::uuid, i, ${companySql('i')}, 'CUSTOMER_UPDATED', 'customers-v1', 'customer-' || i % 50000,
                ${since(rows, 'i')}, ${since(rows, 'i')} + interval '20 ms',
                jsonb_build_object('number', (10000 + i % 50000)::text, 'name', 'Kund ' || i % 50000 || ' AB', 'padding', repeat('x', 200))
         FROM generate_series(1, ${rows}) i`,
        `SELECT setval(pg_get_serial_sequence('webhook_events', 'seq'), ${rows})`,
      ],
    },
    {
      table: 'webhook_deliveries',
      needs: ['webhook_events', 'webhook_subscriptions'],
      sql: (rows) => [
        `INSERT INTO webhook_deliveries (id, subscription_id, event_id, company_id, ordering_key, event_seq, status, attempts,
           next_attempt_at, last_attempt_at, last_response_code, delivered_at, created_at)
         OVERRIDING SYSTEM VALUE
         SELECT ${SUBSCRIPTIONS_PER_COMPANY} * (e.seq - 1) + s, ${subscriptionSql(`e.seq % ${COMPANIES} + ${COMPANIES} * (s - 1)`)}, e.id,
                e.company_id, e.ordering_key, e.seq, 'delivered', 1, e.received_at, e.received_at + interval '80 ms', 200,
                e.received_at + interval '80 ms', e.received_at
         FROM webhook_events e CROSS JOIN generate_series(1, ${SUBSCRIPTIONS_PER_COMPANY}) s`,
        `SELECT setval(pg_get_serial_sequence('webhook_deliveries', 'id'), ${SUBSCRIPTIONS_PER_COMPANY * rows})`,
      ],
    },
    {
      table: 'webhook_delivery_attempts',
      needs: ['webhook_deliveries'],
      sql: (rows) => [
        `INSERT INTO webhook_delivery_attempts (id, delivery_id, subscription_id, company_id, event_id, attempt, attempted_at, outcome,
           response_code, latency_ms)
         OVERRIDING SYSTEM VALUE
         SELECT d.id, d.id, d.subscription_id, d.company_id, d.event_id, 1, d.last_attempt_at, 'delivered', 200, 60
         FROM webhook_deliveries d`,
        `SELECT setval(pg_get_serial_sequence('webhook_delivery_attempts', 'id'), ${SUBSCRIPTIONS_PER_COMPANY * rows})`,
      ],
    },
  ],
  bounded: {
    ...RUNNER_TABLES,
    webhook_subscriptions: 'a few per company',
    idempotency_keys: 'the keyed subscription writes of the retention window (a day): a few per company',
  },
  writes: [
    {
      name: 'event intake',
      weight: 1,
      needs: ['processed_events', 'webhook_events', 'webhook_deliveries', 'webhook_subscriptions'],
      build(context) {
        const id = context.nextId();
        const company = companyOf(id);
        return {
          company,
          statements: [
            {
              text: `INSERT INTO processed_events (consumer_group, event_id, event_type, topic, partition, "offset")
                     VALUES ('migload-group', gen_random_uuid(), 'CUSTOMER_UPDATED', 'migload.events', 0, $1)`,
              values: [id],
            },
            {
              text: `WITH stored AS (
                       INSERT INTO webhook_events (id, company_id, type, publisher, ordering_key, occurred_at, data)
                       VALUES (gen_random_uuid(), $1, 'CUSTOMER_UPDATED', 'customers-v1', $2, now(), '{"number": "10001"}')
                       ON CONFLICT (id) DO NOTHING RETURNING id, seq)
                     INSERT INTO webhook_deliveries (subscription_id, event_id, company_id, ordering_key, event_seq)
                     SELECT s.id, stored.id, s.company_id, $2, stored.seq FROM stored, webhook_subscriptions s
                     WHERE s.company_id = $1 AND s.publisher = 'customers-v1' AND s.enabled AND 'CUSTOMER_UPDATED' = ANY (s.event_types)
                     ON CONFLICT (subscription_id, event_id) DO NOTHING`,
              values: [company, `customer-${id % 50_000}`],
            },
          ],
        };
      },
    },
    {
      name: 'record an attempt',
      weight: 4,
      needs: ['webhook_deliveries', 'webhook_delivery_attempts', 'webhook_subscriptions'],
      build(context) {
        const id = context.random(SUBSCRIPTIONS_PER_COMPANY * context.rows);
        return {
          company: companyOf(id),
          statements: [
            {
              text: `WITH subscription AS (
                       SELECT s.id FROM webhook_subscriptions s JOIN webhook_deliveries d ON d.subscription_id = s.id WHERE d.id = $1 FOR KEY SHARE OF s
                     ), updated AS (
                       UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = now(), last_response_code = 200,
                         status = 'delivered', delivered_at = now()
                       WHERE id = $1 AND EXISTS (SELECT 1 FROM subscription)
                       RETURNING id, subscription_id, company_id, event_id, attempts)
                     INSERT INTO webhook_delivery_attempts (delivery_id, subscription_id, company_id, event_id, attempt, attempted_at, outcome,
                       response_code, latency_ms)
                     SELECT id, subscription_id, company_id, event_id, attempts, now(), 'delivered', 200, 60 FROM updated`,
              values: [id],
            },
          ],
        };
      },
    },
  ],
};
