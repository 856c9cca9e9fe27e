import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The file is larger than ${limit} bytes`);
    this.name = 'UploadTooLargeError';
  }
}

/**
 * Passes an upload through unchanged while counting its bytes and hashing them (SHA-256), and
 * fails the stream as soon as the count passes the limit, so nothing beyond the limit is ever
 * written and the caller can delete what was.
 */
export class UploadMeter extends Transform {
  size = 0;
  private readonly hash: Hash = createHash('sha256');
  private digest?: string;

  constructor(private readonly limit: number) {
    // Room for a few socket chunks on each side, so hashing and reading do not wait on every
    // single storage write (the 16 KiB default is less than one 64 KiB chunk).
    super({ highWaterMark: 256 * 1024 });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      callback(new UploadTooLargeError(this.limit));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** Hex SHA-256 of everything that passed (call once the stream has ended). */
  sha256(): string {
    this.digest ??= this.hash.digest('hex');
    return this.digest;
  }
}
