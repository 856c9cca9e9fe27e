import type { Readable } from 'node:stream';

/**
 * Where attachment bytes live. Two drivers implement it: the filesystem (embedded default) and
 * S3 (MinIO, AWS S3 and compatible stores). Objects are written once under a fresh key and never
 * overwritten; metadata in Postgres points at them.
 */
export interface ObjectStorage {
  readonly driver: 'filesystem' | 's3';

  /**
   * Streams `body` into a new object. Resolves once the object is durable and complete; rejects
   * (leaving nothing readable under `key`) when the body errors or the store fails. Memory use
   * is bounded by the driver (S3: one part), never by the object's size.
   */
  put(key: string, body: Readable, options?: { contentType?: string }): Promise<void>;

  /** A stream of the object's bytes; rejects with ObjectNotFoundError when there is none. */
  get(key: string): Promise<Readable>;

  /** Removes the object and any partial upload under `key`; succeeds when there is none. */
  delete(key: string): Promise<void>;

  /** Every key (for operations and tests: the store holds nothing but what metadata names). */
  list(): AsyncIterable<string>;

  /** Throws when the store cannot be used (readiness). */
  check(): Promise<void>;
}

export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No object under ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** Keys are `<segment>/<segment>/...` of safe characters: they can never escape the store's root. */
export const STORAGE_KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY.test(key) || key.length > 200) throw new Error(`Invalid storage key: ${key.slice(0, 60)}`);
}
