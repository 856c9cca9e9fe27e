import type { EntityManager } from 'typeorm';
import { queryRows } from '@erp/database';

/** Whose key it is: two companies, two callers or two operations with one key never meet. */
export interface KeyScope {
  companyId: string;
  /** The token's subject. */
  caller: string;
  /** The method and route pattern, e.g. `POST /v1/customer`. */
  operation: string;
  key: string;
}

/** The answer a keyed write gave, as it was sent. */
export interface StoredAnswer {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The headers of an answer worth giving again: what a client reads of a write's answer. */
export const STORED_HEADERS = ['content-type', 'etag', 'location', 'retry-after'];

/** The stored answer of `scope`, in the caller's transaction (it sees the company's rows only). */
export async function findStoredAnswer(tx: EntityManager, scope: KeyScope): Promise<StoredAnswer | undefined> {
  const rows = (await tx.query(
    `SELECT fingerprint, status, headers, body FROM idempotency_keys
      WHERE company_id = $1 AND caller = $2 AND operation = $3 AND key = $4`,
    [scope.companyId, scope.caller, scope.operation, scope.key],
  )) as Array<{ fingerprint: string; status: number; headers: Record<string, string>; body: Buffer }>;
  return rows[0];
}

/** Stores the answer of `scope`'s first request, in the transaction of its effect when it has one. */
export async function storeAnswer(tx: EntityManager, scope: KeyScope, answer: StoredAnswer): Promise<void> {
  await tx.query(
    `INSERT INTO idempotency_keys (company_id, caller, operation, key, fingerprint, status, headers, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
    [scope.companyId, scope.caller, scope.operation, scope.key, answer.fingerprint, answer.status, JSON.stringify(answer.headers), answer.body],
  );
}

/**
 * Takes the key for the rest of the caller's transaction, or says another request holds it. An
 * advisory lock of the transaction, not a row: it goes with the transaction (a crash before the
 * commit leaves no key behind it), it works through a transaction-mode pooler, and a second
 * request asks and is answered at once instead of queueing.
 */
export async function tryTakeKey(tx: EntityManager, scope: KeyScope): Promise<boolean> {
  const rows = (await tx.query(`SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS taken`, [
    [scope.companyId, scope.caller, scope.operation, scope.key].join('\u001f'),
  ])) as Array<{ taken: boolean }>;
  return rows[0]?.taken === true;
}

/**
 * Removes up to `batch` answers stored before `cutoff`, as the service role, in a transaction of
 * their own: row deletes of old keys, which no write of a new key waits for. Returns how many.
 */
export async function removeAnswersBefore(tx: EntityManager, cutoff: Date, batch: number): Promise<number> {
  const rows = await queryRows(
    tx,
    `DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED))
     RETURNING 1`,
    [cutoff, batch],
  );
  return rows.length;
}
