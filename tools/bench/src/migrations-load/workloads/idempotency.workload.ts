import { companySql, type TableFill, type WriteContext, type WriteStatement } from './workload';

/**
 * The table of @erp/idempotency, in every service that takes writes. It grows with the keyed
 * writes of the retention window (24 hours by default, `IDEMPOTENCY_KEY_RETENTION_HOURS`) and is
 * trimmed only by age, so a busy installation holds a million rows. Filled as answered writes of
 * the last day, spread over the three companies.
 */
export const IDEMPOTENCY_KEYS_FILL: TableFill = {
  table: 'idempotency_keys',
  sql: (rows) => [
    `INSERT INTO idempotency_keys (company_id, scope_hash, fingerprint, status, headers, body, created_at)
     SELECT ${companySql('i')}, sha256(('migload-key-' || i)::bytea), md5(i::text) || md5((i + 1)::text), 201,
            '{"etag":"W/\\"' || i || '\\"","location":"/records/' || i || '"}',
            json_build_object('id', i, 'name', 'Filled answer ' || i, 'padding', repeat('x', 200))::text,
            now() - interval '1 day' + i * (interval '1 day' / ${rows})
     FROM generate_series(1, ${rows}) i`,
  ],
};

/**
 * A keyed write's row, as `claimKey` inserts it and `completeAnswer` fills it in, in the write's
 * own transaction (`libs/idempotency/src/stored-answers.ts`).
 */
export function idempotencyKeyInsert(context: WriteContext, company: string): WriteStatement[] {
  if (!context.has('idempotency_keys')) return [];
  const key = `migload-write-${context.nextId()}`;
  return [
    {
      text: `INSERT INTO idempotency_keys (company_id, scope_hash, fingerprint, status, headers, body) VALUES ($1, sha256($2::bytea), $3, 0, '{}', '')`,
      values: [company, key, 'claimed'],
    },
    {
      text: `UPDATE idempotency_keys SET status = 201, headers = '{}', body = $3 WHERE company_id = $1 AND scope_hash = sha256($2::bytea)`,
      values: [company, key, JSON.stringify({ key })],
    },
  ];
}
