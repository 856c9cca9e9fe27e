import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { prepared, queryRows } from '@erp/database';

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

/** What a request that claims a key finds. */
export type KeyClaim = { claimed: true } | { claimed: false; inUse: true } | { claimed: false; inUse: false; stored: StoredAnswer };

/**
 * Claims the key for the caller's transaction in one statement (a keyed write's extra round trips
 * are its cost: bench:idempotency): takes its advisory lock and inserts its row, with `answer` when
 * it is known (a 4xx before any write), else a placeholder the write's answer fills in
 * (completeAnswer) before the commit.
 * - The lock held by another request (a transaction still running with the key): in use.
 * - The row inserted: claimed, the request is the key's first.
 * - The row there already (committed: no request that could still commit one holds the lock):
 *   its stored answer, read by a statement of its own, whose snapshot sees that commit.
 * The lock goes with the transaction (a crash before the commit leaves no key behind it), works
 * through a transaction-mode pooler, and answers a second request at once instead of queueing it.
 */
export async function claimKey(tx: EntityManager, scope: KeyScope, fingerprint: string, answer?: StoredAnswer): Promise<KeyClaim> {
  const [row] = (await tx.query(
    prepared(`WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtextextended($7, 0)) AS taken),
       claimed AS (
         INSERT INTO idempotency_keys (company_id, scope_hash, fingerprint, status, headers, body)
         SELECT $1, $2, $3, $4, $5, $6 FROM lock WHERE lock.taken ON CONFLICT DO NOTHING RETURNING 1)
     SELECT lock.taken, EXISTS (SELECT 1 FROM claimed) AS claimed FROM lock`),
    [
      scope.companyId,
      scopeHashOf(scope),
      fingerprint,
      answer?.status ?? CLAIMED,
      JSON.stringify(answer?.headers ?? {}),
      answer?.body.toString('utf8') ?? '',
      lockNameOf(scope),
    ],
  )) as Array<{ taken: boolean; claimed: boolean }>;
  if (!row?.taken) return { claimed: false, inUse: true };
  if (row.claimed) return { claimed: true };
  const rows = (await tx.query(prepared(`SELECT fingerprint, status, headers, body FROM idempotency_keys WHERE company_id = $1 AND scope_hash = $2`), [
    scope.companyId,
    scopeHashOf(scope),
  ])) as Array<{ fingerprint: string; status: number; headers: string; body: string }>;
  const stored = rows[0];
  if (!stored) throw new Error('idempotency key row vanished between its conflict and its read');
  return { claimed: false, inUse: false, stored: { ...stored, headers: JSON.parse(stored.headers) as Record<string, string>, body: Buffer.from(stored.body) } };
}

/** Fills in the claimed key's answer, in the write's transaction, before it commits. */
export async function completeAnswer(tx: EntityManager, scope: KeyScope, answer: StoredAnswer): Promise<void> {
  await tx.query(prepared(`UPDATE idempotency_keys SET fingerprint = $3, status = $4, headers = $5, body = $6 WHERE company_id = $1 AND scope_hash = $2`), [
    scope.companyId,
    scopeHashOf(scope),
    answer.fingerprint,
    answer.status,
    JSON.stringify(answer.headers),
    answer.body.toString('utf8'),
  ]);
}

/** Gives the claim up (a write committed without an answer to store: its retry does it again). */
export async function releaseClaim(tx: EntityManager, scope: KeyScope): Promise<void> {
  await tx.query(prepared(`DELETE FROM idempotency_keys WHERE company_id = $1 AND scope_hash = $2`), [scope.companyId, scopeHashOf(scope)]);
}

/** The status of a claimed row whose answer is not filled in yet; never committed as such. */
const CLAIMED = 0;

/** The caller, operation and key of a scope as one digest (the company is a column of its own, for the wall). */
function scopeHashOf(scope: KeyScope): Buffer {
  return createHash('sha256').update([scope.caller, scope.operation, scope.key].join('\u001f')).digest();
}

function lockNameOf(scope: KeyScope): string {
  return [scope.companyId, scope.caller, scope.operation, scope.key].join('\u001f');
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
