import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { assertStorageKey, ObjectNotFoundError, type ObjectStorage } from './object-storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** MinIO or another S3-compatible endpoint; unset for AWS. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Static credentials; the AWS default provider chain when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bytes per multipart part (at least 5 MiB, S3's minimum); the most one upload holds in memory. */
  partSizeBytes: number;
  /** Optional key prefix inside the bucket, e.g. `attachments/`. */
  prefix?: string;
}

/**
 * Objects in an S3 bucket. The upload size is unknown while it streams, so a put buffers at most
 * one part: a body smaller than a part is one PutObject, a larger one a multipart upload whose
 * parts are sent as they fill (memory stays at one part whatever the file size). A failed put
 * aborts its multipart upload, so no object appears; parts of an upload that could not even be
 * aborted (the process died) are removed by the bucket's AbortIncompleteMultipartUpload lifecycle
 * rule (see the README). Checksums are computed only where S3 requires them, which keeps the
 * driver compatible with MinIO and other S3-compatible stores.
 */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    assertStorageKey(key);
    return `${this.options.prefix ?? ''}${key}`;
  }

  async put(key: string, body: Readable, options: { contentType?: string } = {}): Promise<void> {
    const Key = this.objectKey(key);
    const Bucket = this.options.bucket;
    const partSize = this.options.partSizeBytes;
    // A body smaller than a part is kept as its chunks and sent with one PutObject. From the first
    // full part on, one part buffer serves the whole upload, filled chunk by chunk and reused for
    // every part (the SDK is done with it once UploadPart resolves): memory stays at one part and
    // no garbage is made per part; small uploads never allocate a whole part.
    let head: Buffer[] = [];
    let headBytes = 0;
    let part: Buffer | undefined;
    let filled = 0;
    let uploadId: string | undefined;
    const parts: Array<{ ETag?: string; PartNumber: number }> = [];

    const sendPart = async (data: Buffer) => {
      if (!uploadId) {
        const created = await this.client.send(
          new CreateMultipartUploadCommand({ Bucket, Key, ContentType: options.contentType }),
        );
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const sent = await this.client.send(
        new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: data, ContentLength: data.length }),
      );
      parts.push({ ETag: sent.ETag, PartNumber });
    };

    const fill = async (chunk: Buffer, target: Buffer) => {
      for (let offset = 0; offset < chunk.length; ) {
        const copied = chunk.copy(target, filled, offset);
        filled += copied;
        offset += copied;
        if (filled === partSize) {
          await sendPart(target);
          filled = 0;
        }
      }
    };

    try {
      // `for await` pulls one chunk at a time: while a part is being sent, the source waits.
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (part) {
          await fill(chunk, part);
          continue;
        }
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes < partSize) continue;
        part = Buffer.allocUnsafe(partSize);
        const buffered = head;
        head = [];
        for (const earlier of buffered) await fill(earlier, part);
      }
      const rest = part ? part.subarray(0, filled) : Buffer.concat(head, headBytes);
      if (!uploadId) {
        await this.client.send(
          new PutObjectCommand({ Bucket, Key, Body: rest, ContentLength: rest.length, ContentType: options.contentType }),
        );
        return;
      }
      if (rest.length > 0) await sendPart(rest);
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      if (uploadId) {
        // Best effort: some S3-compatible stores lack it; the lifecycle rule is the backstop.
        await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => undefined);
      }
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      if (!response.Body) throw new ObjectNotFoundError(key);
      return response.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  async *list(): AsyncIterable<string> {
    const prefix = this.options.prefix ?? '';
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix || undefined, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(prefix.length);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }

  /** Closes the client's keep-alive sockets (Nest calls this on shutdown). */
  onApplicationShutdown(): void {
    this.client.destroy();
  }
}
