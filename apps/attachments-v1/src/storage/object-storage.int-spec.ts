import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startTestS3Server, type TestS3Server } from '@erp/testing';
import { FilesystemStorage } from './filesystem-storage';
import { ObjectNotFoundError, type ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage';

const MIB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keys(storage: ObjectStorage): Promise<string[]> {
  const all: string[] = [];
  for await (const key of storage.list()) all.push(key);
  return all.sort();
}

/** A body that yields `before` bytes, then fails (a client that disconnects mid-upload). */
function failingBody(before: number, chunk = 256 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= before) {
        this.destroy(new Error('client went away'));
        return;
      }
      const size = Math.min(chunk, before - sent);
      sent += size;
      this.push(randomBytes(size));
    },
  });
}

interface Driver {
  storage: ObjectStorage;
  close(): Promise<void>;
}

const drivers: Array<[string, () => Promise<Driver>]> = [
  [
    'filesystem',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'erp-storage-'));
      return { storage: new FilesystemStorage(dir), close: () => rm(dir, { recursive: true, force: true }) };
    },
  ],
  [
    's3 (against s3rver)',
    async () => {
      const server: TestS3Server = await startTestS3Server();
      const storage = new S3Storage({
        bucket: server.bucket,
        region: 'us-east-1',
        endpoint: server.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
        partSizeBytes: 5 * MIB,
      });
      return {
        storage,
        async close() {
          storage.onApplicationShutdown();
          await server.close();
        },
      };
    },
  ],
];

// The contract every driver keeps; the service's behaviour rests on it.
describe.each(drivers)('ObjectStorage contract: %s driver', (_name, start) => {
  let d: Driver;
  beforeAll(async () => {
    d = await start();
  });
  afterAll(() => d.close());

  it('stores a stream under a key and streams it back unchanged, including an empty object', async () => {
    const data = randomBytes(300_000);
    await d.storage.put('c1/aa/object-1', Readable.from([data.subarray(0, 1000), data.subarray(1000)]));
    expect((await readAll(await d.storage.get('c1/aa/object-1'))).equals(data)).toBe(true);
    await d.storage.put('c1/aa/empty', Readable.from([]));
    expect(await readAll(await d.storage.get('c1/aa/empty'))).toHaveLength(0);
    await d.storage.delete('c1/aa/empty');
  });

  it('stores an object larger than one part (a multipart upload on S3) without changing a byte', async () => {
    const data = randomBytes(11 * MIB + 7);
    await d.storage.put('c1/bb/large', Readable.from((function* () {
      for (let i = 0; i < data.length; i += 64 * 1024) yield data.subarray(i, i + 64 * 1024);
    })()));
    const back = await readAll(await d.storage.get('c1/bb/large'));
    expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    await d.storage.delete('c1/bb/large');
  });

  it('leaves nothing under the key when the body fails, small or multipart', async () => {
    const before = await keys(d.storage);
    await expect(d.storage.put('c1/cc/failed-small', failingBody(100_000))).rejects.toThrow('client went away');
    await expect(d.storage.put('c1/cc/failed-large', failingBody(12 * MIB))).rejects.toThrow('client went away');
    await expect(d.storage.get('c1/cc/failed-small')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(d.storage.get('c1/cc/failed-large')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await keys(d.storage)).toEqual(before);
  });

  it('lists keys, deletes idempotently, and reports a missing object as ObjectNotFoundError', async () => {
    await d.storage.put('c2/dd/x', Readable.from([Buffer.from('x')]));
    expect(await keys(d.storage)).toContain('c2/dd/x');
    await d.storage.delete('c2/dd/x');
    await d.storage.delete('c2/dd/x');
    expect(await keys(d.storage)).not.toContain('c2/dd/x');
    await expect(d.storage.get('c2/dd/x')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('refuses keys that could escape the store', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '', 'a/.hidden/..']) {
      await expect(d.storage.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/Invalid storage key|escapes/);
    }
  });

  it('answers its readiness check', async () => {
    await expect(d.storage.check()).resolves.toBeUndefined();
  });
});

describe('FilesystemStorage', () => {
  it('writes to a .partial file and renames it only when complete', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'erp-storage-'));
    try {
      const storage = new FilesystemStorage(dir);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const body = Readable.from((async function* () {
        yield Buffer.from('first half ');
        await gate;
        yield Buffer.from('second half');
      })());
      const writing = storage.put('c/ee/slow', body);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await readdir(join(dir, 'c', 'ee'))).toEqual(['slow.partial']);
      await expect(storage.get('c/ee/slow')).rejects.toBeInstanceOf(ObjectNotFoundError);
      release();
      await writing;
      expect(await readdir(join(dir, 'c', 'ee'))).toEqual(['slow']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
