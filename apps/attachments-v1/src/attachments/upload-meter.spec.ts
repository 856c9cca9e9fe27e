import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UploadMeter, UploadTooLargeError } from './upload-meter';

function sink(): { stream: Writable; bytes: () => number } {
  let count = 0;
  return {
    stream: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        count += chunk.length;
        callback();
      },
    }),
    bytes: () => count,
  };
}

describe('UploadMeter', () => {
  it('passes bytes through unchanged, counting and hashing them', async () => {
    const data = randomBytes(100_000);
    const meter = new UploadMeter(100_000);
    const out = sink();
    await pipeline(Readable.from([data.subarray(0, 1), data.subarray(1, 70_000), data.subarray(70_000)]), meter, out.stream);
    expect(meter.size).toBe(100_000);
    expect(out.bytes()).toBe(100_000);
    expect(meter.sha256()).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('fails as soon as the limit is passed, never passing on a byte beyond it', async () => {
    const meter = new UploadMeter(1000);
    const out = sink();
    await expect(pipeline(Readable.from([randomBytes(600), randomBytes(600), randomBytes(600)]), meter, out.stream)).rejects.toBeInstanceOf(
      UploadTooLargeError,
    );
    expect(out.bytes()).toBeLessThanOrEqual(1000);
  });
});
