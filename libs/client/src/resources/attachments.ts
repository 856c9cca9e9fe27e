import { PassThrough, Readable } from 'node:stream';
import { ErpApiError, ErpNetworkError } from '../errors';
import type { Transport } from '../http/transport';
import { isReplayable, multipartFile, type UploadData } from '../attachments/multipart';
import type { AttachmentCreated } from '../types';

export type AttachmentOwnerType = 'customer' | 'supplierInvoice';

export interface AttachmentOwner {
  /** `customer` (id = customer number) or `supplierInvoice` (id = document number). */
  type: AttachmentOwnerType;
  id: string;
}

export interface UploadFile {
  fileName: string;
  data: UploadData;
  /** Default `application/octet-stream`. */
  contentType?: string;
  /** File bytes sent so far. */
  onProgress?(bytes: number): void;
}

export interface UploadOptions {
  /**
   * The attachments service learns new owners from their created events, so an upload right after
   * creating the owner can answer 404 for a moment. With in-memory data, retry a 404 for up to this
   * long. Default 0 (a 404 is thrown at once).
   */
  waitForOwnerMs?: number;
  /** The upload's Idempotency-Key (default a fresh one): the same key again uploads the file once. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface DownloadOptions {
  /** An older revision (1-based); default the latest. */
  revision?: number;
  /** File bytes received so far. */
  onProgress?(bytes: number): void;
  signal?: AbortSignal;
}

export interface AttachmentStream {
  /** The file's bytes. */
  stream: Readable;
  /** From `Content-Length`. */
  size?: number;
  contentType?: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `/v1/{endpoint}/{objectId}/Attachment` and `/v1/attachment/{id}`. */
export class AttachmentsApi {
  constructor(private readonly transport: Transport) {}

  /** Uploads one file (one request per file, as the API requires), streamed; answers the 201 body. */
  async upload(owner: AttachmentOwner, file: UploadFile, options: UploadOptions = {}): Promise<AttachmentCreated> {
    if (owner.type !== 'customer' && owner.type !== 'supplierInvoice') throw new TypeError(`attachments belong to a customer or a supplierInvoice, not ${String(owner.type)}`);
    const path = `/v1/${owner.type}/${encodeURIComponent(owner.id)}/Attachment`;
    const replayable = isReplayable(file.data);
    const deadline = Date.now() + (replayable ? (options.waitForOwnerMs ?? 0) : 0);
    // One key for every try: the body is streamed, so the transport cannot send it twice; bytes
    // in memory are framed again here for each try, which the API then applies once.
    const key = options.idempotencyKey ?? this.transport.newIdempotencyKey();
    for (let attempt = 0, retried = 0; ; attempt++) {
      const { contentType, body } = multipartFile(file);
      try {
        const { data } = await this.transport.request<AttachmentCreated>('POST', path, { body, headers: { 'content-type': contentType, 'idempotency-key': key }, signal: options.signal });
        return data;
      } catch (error) {
        if (error instanceof ErpApiError && error.status === 404 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
          continue;
        }
        const delay = replayable ? this.transport.keyedRetryDelay(error, retried++) : undefined;
        if (delay === undefined) {
          if (error instanceof ErpApiError || error instanceof ErpNetworkError) error.idempotencyKey = key;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * The file's bytes, read from the specification's representation (the Base64 text of
   * `GET /v1/attachment/{id}`) and decoded. Holds the whole file in memory: use `downloadStream`
   * for large files.
   */
  async download(id: string, options: Omit<DownloadOptions, 'onProgress'> = {}): Promise<Buffer> {
    const { data } = await this.transport.request<string | undefined>('GET', this.path(id), {
      query: { revision: options.revision },
      headers: { accept: 'text/plain' },
      signal: options.signal,
    });
    const text = (data ?? '').trim();
    if (text.length % 4 !== 0 || !BASE64.test(text)) throw new TypeError(`GET /v1/attachment/${id}: the answer is not Base64`);
    return Buffer.from(text, 'base64');
  }

  /**
   * The file's bytes as a stream, in constant memory whatever the size. Reads the raw
   * representation (`Accept: application/octet-stream`): the same bytes as the Base64 one decoded,
   * a quarter fewer on the wire and nothing to decode.
   */
  async open(id: string, options: DownloadOptions = {}): Promise<AttachmentStream> {
    const response = await this.transport.send('GET', this.path(id), {
      query: { revision: options.revision },
      headers: { accept: 'application/octet-stream' },
      signal: options.signal,
    });
    const length = response.headers.get('content-length');
    const size = length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
    let received = 0;
    const source = response.body ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>) : Readable.from([]);
    const counted = new PassThrough({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        options.onProgress?.(received);
        done(null, chunk);
      },
      flush(done) {
        // A connection that closes early must not look like a complete (shorter) file.
        done(size !== undefined && received !== size ? new ErpNetworkError(`GET /v1/attachment/${id}: ${received} of ${size} bytes received`, 'GET', response.url) : null);
      },
    });
    source.on('error', (error) => counted.destroy(new ErpNetworkError(`GET /v1/attachment/${id}: the download was cut short`, 'GET', response.url, { cause: error })));
    return { stream: source.pipe(counted), size, contentType: response.headers.get('content-type') ?? undefined };
  }

  /** `open` as a stream returned at once; errors (4xx, network) arrive as the stream's 'error'. */
  downloadStream(id: string, options: DownloadOptions = {}): Readable {
    const out = new PassThrough();
    this.open(id, options).then(
      ({ stream }) => {
        stream.on('error', (error) => out.destroy(error));
        stream.pipe(out);
      },
      (error: Error) => out.destroy(error),
    );
    return out;
  }

  private path(id: string): string {
    return `/v1/attachment/${encodeURIComponent(id)}`;
  }
}
