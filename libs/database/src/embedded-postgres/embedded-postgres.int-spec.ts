import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { Client } from 'pg';

import { startEmbeddedPostgres } from './embedded-postgres';

async function query<T extends object>(url: string, sql: string): Promise<T[]> {
  const client = new Client(url);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A pid that certainly belongs to no running process. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return pid;
}

describe('startEmbeddedPostgres', () => {
  // Directly under the temporary directory: as root the server runs as "postgres", which must
  // be able to traverse every parent directory.
  const dataDir = path.join(
    os.tmpdir(),
    `erp-embedded-pg-spec-${process.pid}-${randomBytes(4).toString('hex')}`,
  );

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps data between runs of a persistent cluster, reusing it rather than initialising again', async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      expect(first.adminUrl).toBe(`postgres://postgres:postgres@127.0.0.1:${first.port}/postgres`);
      await query(first.adminUrl, 'CREATE TABLE kept (id int); INSERT INTO kept VALUES (42)');
    } finally {
      await first.stop();
    }

    const log: string[] = [];
    const second = await startEmbeddedPostgres({ dataDir, onLog: (line) => log.push(line) });
    try {
      expect(await query(second.adminUrl, 'SELECT id FROM kept')).toEqual([{ id: 42 }]);
      expect(log.some((line) => line.includes('reusing the PostgreSQL'))).toBe(true);
      expect(log.some((line) => line.includes('initialising'))).toBe(false);
    } finally {
      await second.stop();
    }
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });

  it('starts over a postmaster.pid left by a server that was killed', async () => {
    await writeFile(
      path.join(dataDir, 'postmaster.pid'),
      `${deadPid()}\n${dataDir}\n1700000000\n5999\n\n127.0.0.1\n`,
    );

    const handle = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await query(handle.adminUrl, 'SELECT id FROM kept')).toEqual([{ id: 42 }]);
    } finally {
      await handle.stop();
    }
  });

  it('refuses to start a second server on a directory a live process is using', async () => {
    const handle = await startEmbeddedPostgres({ dataDir });
    try {
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
        /already running on .* \(pid \d+, port \d+\)/,
      );
    } finally {
      await handle.stop();
    }
  });

  it('uses the port it is given, with the server settings the services rely on', async () => {
    const probe = await startEmbeddedPostgres({ dataDir });
    const port = probe.port;
    await probe.stop();

    const handle = await startEmbeddedPostgres({ dataDir, port });
    try {
      expect(handle.port).toBe(port);
      expect(
        await query(
          handle.adminUrl,
          `SELECT current_setting('max_connections') AS max, current_setting('server_encoding') AS enc, ` +
            `current_setting('listen_addresses') AS listen`,
        ),
      ).toEqual([{ max: '300', enc: 'UTF8', listen: '127.0.0.1' }]);
    } finally {
      await handle.stop();
    }
  });

  it('creates a non-persistent cluster afresh, tuned for tests, and deletes it on stop', async () => {
    const scratchDir = `${dataDir}-scratch`;
    const handle = await startEmbeddedPostgres({ dataDir: scratchDir, persistent: false });
    try {
      expect(await query(handle.adminUrl, `SELECT current_setting('fsync') AS fsync`)).toEqual([
        { fsync: 'off' },
      ]);
    } finally {
      await handle.stop();
      await handle.stop();
    }
    expect(existsSync(scratchDir)).toBe(false);
  });

  it('refuses a non-empty directory that holds no cluster', async () => {
    const foreignDir = `${dataDir}-foreign`;
    await mkdir(foreignDir, { recursive: true });
    await writeFile(path.join(foreignDir, 'notes.txt'), 'not a database');
    try {
      await expect(startEmbeddedPostgres({ dataDir: foreignDir })).rejects.toThrow(/no PG_VERSION/);
      expect(await readFile(path.join(foreignDir, 'notes.txt'), 'utf8')).toBe('not a database');
    } finally {
      await rm(foreignDir, { recursive: true, force: true });
    }
  });

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot('explains when the server user cannot reach the data directory', async () => {
    const privateParent = await mkdtemp(path.join(os.tmpdir(), 'erp-private-')); // mode 0700, root's
    try {
      await expect(startEmbeddedPostgres({ dataDir: path.join(privateParent, 'db') })).rejects.toThrow(
        /cannot reach .* is not traversable/,
      );
    } finally {
      await rm(privateParent, { recursive: true, force: true });
    }
  });
});
