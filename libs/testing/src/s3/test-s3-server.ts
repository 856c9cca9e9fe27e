import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A local S3-compatible server for one test file (s3rver), with one empty bucket. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The attachments service's S3 variables pointing at this server. */
  serviceEnv: Record<string, string>;
  close(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

/**
 * Starts s3rver (a real S3 wire-protocol server over the filesystem) on a free port of 127.0.0.1,
 * in a temporary directory deleted at close. Real HTTP and SigV4: the S3 driver is tested against
 * it exactly as it talks to MinIO or S3, not against a mock.
 */
export async function startTestS3Server(bucket = 'attachments-test'): Promise<TestS3Server> {
  // Loaded lazily: only the tests that need S3 pay for it.
  const S3rver = require('s3rver') as S3rverConstructor;
  const directory = await mkdtemp(join(tmpdir(), 'erp-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's built-in account.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    serviceEnv: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
