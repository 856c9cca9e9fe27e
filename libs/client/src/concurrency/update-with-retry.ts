import { ErpApiError, ErpConflictError } from '../errors';

export interface UpdateOptions {
  /** Read-change-write attempts before giving up with ErpConflictError. Default 5. */
  maxAttempts?: number;
}

/** The caller's change: gets the record as just read, returns what to send (never mutate-and-hope). */
export type ChangeFunction<T, P> = (current: T, attempt: number) => P | Promise<P>;

export interface ReadModifyWrite<T, P, R> {
  /** What is updated, for the error message (e.g. `sales order SO/000123`). */
  resource: string;
  read(): Promise<{ record: T; etag: string }>;
  change: ChangeFunction<T, P>;
  /** Sends the change with `If-Match: etag`; a 412 makes the helper read again. */
  write(patch: P, etag: string): Promise<R>;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Optimistic concurrency done right: read the record and its ETag, apply the caller's change to
 * what was read, write with `If-Match`; on 412 (someone else wrote first) read again and apply the
 * change again to the new state, at most `maxAttempts` times, with a short random pause between
 * attempts so that competing writers spread out. Never sends a change computed from a stale read.
 */
export async function updateWithRetry<T, P, R>(op: ReadModifyWrite<T, P, R>, options: UpdateOptions = {}): Promise<R> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  let lastConflict: ErpApiError | undefined;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const { record, etag } = await op.read();
    const patch = await op.change(record, attempt);
    try {
      return await op.write(patch, etag);
    } catch (error) {
      if (!(error instanceof ErpApiError) || error.status !== 412) throw error;
      lastConflict = error;
      if (attempt < maxAttempts) await pause(attempt);
    }
  }
  throw new ErpConflictError(op.resource, maxAttempts, { cause: lastConflict as ErpApiError });
}

/** Random pause that grows with the attempt (full jitter, 10 ms .. 320 ms ceiling). */
function pause(attempt: number): Promise<void> {
  const ceiling = Math.min(320, 10 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
