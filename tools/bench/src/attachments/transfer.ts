import { createHash, randomBytes, type Hash } from 'node:crypto';
import { request } from 'node:http';
import { Readable } from 'node:stream';

const CHUNK = 256 * 1024;

/**
 * The file: `size` pseudo-random bytes made 256 KiB at a time (a fresh random block XORed with a
 * counter, so it never repeats), hashed as they are produced.
 */
export function* fileChunks(size: number, hash: Hash): Generator<Buffer> {
  const block = randomBytes(CHUNK);
  for (let sent = 0, n = 0; sent < size; n++) {
    const length = Math.min(CHUNK, size - sent);
    const chunk = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i += 4) chunk.writeUInt32LE((block.readUInt32LE(i) ^ (n * 2654435761)) >>> 0, i);
    hash.update(chunk);
    sent += length;
    yield chunk;
  }
}

/**
 * Uploads the file's bytes (`fileChunks(...)`, or a file read stream) to `path` (POST .../Attachment)
 * as one multipart file part over a chunked request (or, with `raw`, as the bare body); resolves
 * with the answer.
 */
export function upload(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  file: Iterable<Buffer> | AsyncIterable<Buffer>,
  options: { raw?: boolean } = {},
): Promise<{ status: number; body: string }> {
  const boundary = `----bench-${randomBytes(8).toString('hex')}`;
  const body = Readable.from(
    options.raw
      ? file
      : (async function* () {
          yield Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          );
          yield* file;
          yield Buffer.from(`\r\n--${boundary}--\r\n`);
        })(),
  );
  const contentType = options.raw ? 'application/octet-stream' : `multipart/form-data; boundary=${boundary}`;
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      { method: 'POST', headers: { ...headers, 'content-type': contentType } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

/**
 * Downloads one representation as it streams, hashing the file's bytes: raw as they come, Base64
 * decoded on the fly (carrying the 0-3 characters of an incomplete group), JSON after its prefix.
 */
export async function download(url: string, headers: Record<string, string>, kind: 'raw' | 'base64' | 'json'): Promise<{ bytes: number; sha256: string }> {
  const response = await fetch(url, { headers });
  if (response.status !== 200 || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
  const hash = createHash('sha256');
  let bytes = 0;
  let carry = '';
  let inContent = kind !== 'json';
  let done = false;
  const decoder = new TextDecoder('latin1');
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (kind === 'raw') {
      hash.update(chunk);
      continue;
    }
    let text = carry + decoder.decode(chunk, { stream: true });
    if (!inContent) {
      const start = text.indexOf('"content":"');
      if (start < 0) {
        carry = text;
        continue;
      }
      text = text.slice(start + '"content":"'.length);
      inContent = true;
    }
    if (kind === 'json' && !done) {
      const end = text.indexOf('"');
      if (end >= 0) {
        text = text.slice(0, end);
        done = true;
      }
    } else if (done) {
      continue;
    }
    const whole = text.length - (text.length % 4);
    hash.update(Buffer.from(text.slice(0, whole), 'base64'));
    carry = text.slice(whole);
  }
  if (carry) hash.update(Buffer.from(carry, 'base64'));
  return { bytes, sha256: hash.digest('hex') };
}

/** GETs `url` and throws the body away as it arrives: the status and the bytes received. */
export function drain(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
