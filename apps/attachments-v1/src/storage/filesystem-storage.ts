import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, ObjectNotFoundError, type ObjectStorage } from './object-storage';

const PARTIAL_SUFFIX = '.partial';

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
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
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
    return createReadStream(path, { highWaterMark: 64 * 1024 });
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
