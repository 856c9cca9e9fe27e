import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export type UploadData = Buffer | Uint8Array | Readable | ReadableStream<Uint8Array>;

/** Slice size for in-memory data, so that progress moves while a large buffer is sent. */
const SLICE = 64 * 1024;

export interface MultipartBody {
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * A `multipart/form-data` body with one part named `file`, streamed: the file's bytes are pulled
 * from `data` only as fast as the connection takes them (constant memory for any file size), and
 * `onProgress` gets the file bytes handed to the connection so far. Written by hand because the
 * platform's FormData only takes a Blob, which would need the whole stream in memory first.
 */
export function multipartFile(file: { fileName: string; data: UploadData; contentType?: string; onProgress?(bytes: number): void }): MultipartBody {
  const boundary = `----erp-client-${randomBytes(16).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; ${fileNameParameters(file.fileName)}\r\n` +
      `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'ascii');
  let sent = 0;
  async function* parts(): AsyncGenerator<Uint8Array> {
    yield head;
    for await (const chunk of chunksOf(file.data)) {
      yield chunk;
      sent += chunk.byteLength;
      file.onProgress?.(sent);
    }
    yield tail;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Readable.toWeb(Readable.from(parts(), { objectMode: false })) as ReadableStream<Uint8Array> };
}

async function* chunksOf(data: UploadData): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) {
    for (let offset = 0; offset < data.byteLength; offset += SLICE) yield data.subarray(offset, offset + SLICE);
    return;
  }
  for await (const chunk of data as AsyncIterable<Uint8Array | string>) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/**
 * `filename="<name>"` in UTF-8 with `"` and `\` escaped as quoted-pairs, as RFC 7578 asks (it
 * forbids the RFC 8187 `filename*` form in form data, and some parsers refuse it). Line breaks
 * cannot be sent in a header and are dropped.
 */
function fileNameParameters(name: string): string {
  return `filename="${name.replace(/[\r\n]/g, '').replace(/(["\\])/g, '\\$1')}"`;
}

/** Whether the data can be sent a second time (a stream is consumed by the first attempt). */
export function isReplayable(data: UploadData): data is Buffer | Uint8Array {
  return data instanceof Uint8Array;
}
