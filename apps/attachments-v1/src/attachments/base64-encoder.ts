import { Transform, type TransformCallback } from 'node:stream';

/**
 * Base64-encodes a byte stream on the fly. Base64 turns each 3 bytes into 4 characters, so each
 * chunk is encoded up to its last whole group of 3 and the 0-2 bytes left over are carried into
 * the next chunk (and padded only at the very end). Memory is one chunk, whatever the file size;
 * the output is exactly `Buffer.toString('base64')` of the whole input.
 */
export class Base64Encoder extends Transform {
  private carry: Buffer = Buffer.alloc(0);

  constructor() {
    super({ decodeStrings: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = data.length - (data.length % 3);
    // Copied, so the carry does not keep the whole previous chunk alive.
    this.carry = Buffer.from(data.subarray(whole));
    callback(null, whole > 0 ? Buffer.from(data.toString('base64', 0, whole), 'latin1') : undefined);
  }

  override _flush(callback: TransformCallback): void {
    callback(null, this.carry.length > 0 ? Buffer.from(this.carry.toString('base64'), 'latin1') : undefined);
  }
}

/** Length of the Base64 text of `size` bytes (with padding). */
export function base64Length(size: number): number {
  return Math.ceil(size / 3) * 4;
}
