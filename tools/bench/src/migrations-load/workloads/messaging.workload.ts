import type { TableFill } from './workload';

/**
 * The tables of @erp/messaging. Both grow with the business and are trimmed only by age: the outbox
 * keeps published events 7 days (the relay's retention), processed_events 30 days (the consumer's),
 * so a busy installation holds a million rows in either. Filled as published, old rows.
 */
export const OUTBOX_FILL: TableFill = {
  table: 'outbox',
  sql: (rows) => [
    `INSERT INTO outbox (id, topic, message_key, event_type, payload, created_at, published_at)
     SELECT gen_random_uuid(), 'migload.events', 'key-' || (i % 50000), 'MIGLOAD_FILLED',
            jsonb_build_object('id', i, 'name', 'Filled event ' || i, 'padding', repeat('x', 200)),
            now() - interval '7 days' + i * (interval '7 days' / ${rows}),
            now() - interval '7 days' + i * (interval '7 days' / ${rows}) + interval '50 ms'
     FROM generate_series(1, ${rows}) i`,
  ],
};

export const PROCESSED_EVENTS_FILL: TableFill = {
  table: 'processed_events',
  sql: (rows) => [
    `INSERT INTO processed_events (consumer_group, event_id, event_type, topic, partition, "offset", processed_at)
     SELECT 'migload-group', gen_random_uuid(), 'MIGLOAD_FILLED', 'migload.events', i % 3, i / 3,
            now() - interval '30 days' + i * (interval '30 days' / ${rows})
     FROM generate_series(1, ${rows}) i`,
  ],
};

/** The migration runner's own tables. */
export const RUNNER_TABLES: Record<string, string> = {
  migrations: 'the runner: one row per migration',
  migrations_lease: 'the runner: one row',
};
