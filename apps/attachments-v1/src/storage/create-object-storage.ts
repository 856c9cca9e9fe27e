import type { AttachmentsConfig } from '../config';
import { FilesystemStorage } from './filesystem-storage';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage';

/** The storage driver the configuration names. */
export function createObjectStorage(config: AttachmentsConfig): ObjectStorage {
  if (config.STORAGE_DRIVER === 's3') {
    // Validation requires S3_BUCKET with the s3 driver; this guards callers that skip it.
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when STORAGE_DRIVER is s3');
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE === 'true',
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
      partSizeBytes: config.S3_PART_SIZE_BYTES,
    });
  }
  return new FilesystemStorage(config.STORAGE_DIR);
}
