import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { AnswerReplay, ApiError } from '@erp/errors';
import { fingerprintOf, IDEMPOTENT_REPLAY_HEADER, type RequestFacts } from './idempotency-key';
import { claimKey, type KeyScope, type StoredAnswer } from './stored-answers';

/** How long a client is told to wait before sending again a key whose first request still runs. */
export const KEY_IN_USE_RETRY_AFTER_SECONDS = 1;

/**
 * A POST or PATCH that came with an Idempotency-Key, from the interceptor to the answer: its scope,
 * its fingerprint, and the write transaction held open until its answer is stored beside the effect.
 */
export class KeyedRequest {
  /** The transaction of the effect, committed with the stored answer (onSend) or rolled back. */
  pending: QueryRunner | undefined;
  /** Answered from storage, or refused for its key: nothing of it is stored. */
  settled = false;
  /** Work that must follow the commit of the write (whenCommitted), run once it committed. */
  readonly afterCommit: Array<() => Promise<void>> = [];
  private fingerprint: string;
  /** False for a streamed upload until its digest is known: an answer before that is not stored. */
  private bodyKnown: boolean;

  constructor(
    readonly scope: KeyScope,
    private readonly facts: RequestFacts,
    options: { streamed?: boolean } = {},
  ) {
    this.fingerprint = fingerprintOf(facts);
    this.bodyKnown = !options.streamed;
  }

  /**
   * Whether an answer may be stored for the key: not one given before a streamed body was read
   * (an unknown owner's 404), which says nothing of the body a retry will send.
   */
  get storable(): boolean {
    return !this.settled && this.bodyKnown;
  }

  get requestFingerprint(): string {
    return this.fingerprint;
  }

  /**
   * The body of a streamed upload, as the digest of what was streamed (the file's SHA-256 and its
   * name), known only once it was read: the same key with another file is another request.
   */
  streamedBody(digest: string): void {
    this.fingerprint = fingerprintOf({ ...this.facts, body: digest });
    this.bodyKnown = true;
  }

  /** What a stored answer means for this request: itself again, or a 422 for a key reused. */
  answerFrom(stored: StoredAnswer): AnswerReplay | ApiError {
    this.settled = true;
    if (stored.fingerprint !== this.fingerprint) {
      return new ApiError(
        'IdempotencyKeyReused',
        `Idempotency-Key "${this.scope.key}" was used for another request to ${this.scope.operation}: send a new key for a new request`,
      );
    }
    return new AnswerReplay(stored.status, { ...stored.headers, [IDEMPOTENT_REPLAY_HEADER]: 'true' }, stored.body);
  }

  /** The 409 of a second request while the first with the key still runs. */
  inUse(): ApiError {
    this.settled = true;
    return new ApiError('IdempotencyKeyInUse', `A request with Idempotency-Key "${this.scope.key}" is still being processed: retry later`, {
      headers: { 'retry-after': String(KEY_IN_USE_RETRY_AFTER_SECONDS) },
    });
  }
}

const storage = new AsyncLocalStorage<KeyedRequest>();

/** Runs `work` (the request's handler) as the keyed request. */
export function runKeyed<T>(keyed: KeyedRequest, work: () => T): T {
  return storage.run(keyed, work);
}

/** The keyed request being handled, if this one came with a key. */
export function currentKeyedRequest(): KeyedRequest | undefined {
  return storage.getStore();
}

/**
 * A write's transaction, as every repository opens it (`repository.transaction(work)`). Outside a
 * keyed request: `db.transaction(work)`, as before. Inside one, its first write transaction:
 * - claims the key (another request holding it: 409; its answer stored already: that answer, or
 *   422 for another request);
 * - runs `work`, and leaves the transaction open: the answer is stored in it and it is committed
 *   when the answer is ready (IdempotencyModule's onSend), so the effect, its outbox event and the
 *   stored answer commit together, or none of them does.
 */
export async function writeTransaction<T>(db: DataSource, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  const keyed = currentKeyedRequest();
  if (!keyed || keyed.pending || keyed.settled) return db.transaction(work);
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    const claim = await claimKey(runner.manager, keyed.scope, keyed.requestFingerprint);
    if (!claim.claimed) throw claim.inUse ? keyed.inUse() : keyed.answerFrom(claim.stored);
    const result = await work(runner.manager);
    keyed.pending = runner;
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
    throw error;
  }
}

/**
 * A write of one statement, which needs no transaction of its own (the webhook subscriptions):
 * in a keyed request it runs in writeTransaction, so its answer commits with it; otherwise as it
 * always ran, on the DataSource's manager.
 */
export function keyedWrite<T>(db: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  const keyed = currentKeyedRequest();
  return keyed && !keyed.pending && !keyed.settled ? writeTransaction(db, work) : work(db.manager);
}

/**
 * Runs `work` once the write of the current request has committed: at once outside a keyed
 * request (its transaction committed when it returned), after the stored answer commits with the
 * write inside one (still before the answer is sent). For calls that tell others about a write,
 * which must not tell of one that may yet roll back.
 */
export async function whenCommitted(work: () => Promise<void>): Promise<void> {
  const keyed = currentKeyedRequest();
  if (keyed?.pending) keyed.afterCommit.push(work);
  else await work();
}
