import fc from 'fast-check';
import { Readable } from 'node:stream';
import { Base64Encoder, base64Length } from './base64-encoder';

async function encode(chunks: Uint8Array[]): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of Readable.from(chunks.map((c) => Buffer.from(c))).pipe(new Base64Encoder())) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('latin1');
}

describe('Base64Encoder', () => {
  it('gives exactly the Base64 of the whole input however the input is split into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 0, maxLength: 40 }), { maxLength: 12 }), async (chunks) => {
        const whole = Buffer.concat(chunks.map((c) => Buffer.from(c)));
        expect(await encode(chunks)).toBe(whole.toString('base64'));
      }),
      { numRuns: 300 },
    );
  });

  it('carries 1 and 2 leftover bytes across chunk borders and pads only at the end', async () => {
    expect(await encode([Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3, 4)])).toBe(Buffer.from([1, 2, 3, 4]).toString('base64'));
    expect(await encode([Uint8Array.of(0, 0), Uint8Array.of()])).toBe('AAA=');
    expect(await encode([])).toBe('');
  });

  it('knows the encoded length in advance (for Content-Length)', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(base64Length)).toEqual([0, 4, 4, 4, 8, 8, 8]);
    fc.assert(fc.property(fc.nat(10_000), (n) => base64Length(n) === Buffer.alloc(n).toString('base64').length));
  });
});
