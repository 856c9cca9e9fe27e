import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, ObjectNotFoundError, type ObjectStorage } from './object-storage';

const PARTIAL_SUFFIX = '.partial';
/**
 * Bytes a put may hold while the previous disk write is still in the thread pool (the default
 * 16 KiB is less than one 64 KiB socket chunk, so reading the upload waited for every write).
 * Per transfer, so memory stays bounded whatever the file size.
 */
export const WRITE_BUFFER_BYTES = 1024 * 1024;
/**
 * Read chunk of a get: fewer thread-pool reads and socket writes than the 64 KiB default, and a
 * multiple of 3, so the Base64 representation encodes each chunk without carrying bytes over.
 */
export const READ_CHUNK_BYTES = 3 * 64 * 1024;

/**
 * Objects as files under one root directory (the embedded default, `.data/attachments`). A put
 * streams into `<key>.partial`, fsyncs it and renames it to `<key>`, so a reader never sees a
 * half-written object and a crash leaves only a `.partial` file (which `delete` also removes).
 */
export class FilesystemStorage implements ObjectStorage {
  readonly driver = 'filesystem' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    assertStorageKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return path;
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    const partial = path + PARTIAL_SUFFIX;
    await mkdir(dirname(path), { recursive: true });
    try {
      // `wx`: a key is written once; an existing file means a key was reused, which is a bug.
      await pipeline(body, createWriteStream(partial, { flags: 'wx', highWaterMark: WRITE_BUFFER_BYTES }));
      const handle = await open(partial, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    try {
      await access(path, constants.R_OK);
    } catch {
      throw new ObjectNotFoundError(key);
    }
    return createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    await rm(path + PARTIAL_SUFFIX, { force: true });
  }

  async *list(): AsyncIterable<string> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      yield relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/');
    }
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}
