import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';

import { Client } from 'pg';

import { testServerUrl } from '../test-support/scratch-database';
import { dropDatabase, ensureDatabase } from './database-admin';
import { databaseUrlFor } from './database-url';

async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  const client = new Client(serverUrl);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('ensureDatabase / dropDatabase', () => {
  const serverUrl = testServerUrl();
  let name: string;

  beforeEach(() => {
    name = `test_admin_${randomBytes(5).toString('hex')}`;
  });

  afterEach(async () => {
    await dropDatabase(serverUrl, name);
  });

  it('creates the database and returns a URL that connects to it', async () => {
    const url = await ensureDatabase(serverUrl, name);

    const client = new Client(url);
    await client.connect();
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    await client.end();
    expect(rows[0]!.db).toBe(name);
  });

  it('succeeds for every caller when several create the same database at once', async () => {
    const urls = await Promise.all(Array.from({ length: 6 }, () => ensureDatabase(serverUrl, name)));

    expect(new Set(urls).size).toBe(1);
    expect(await databaseExists(serverUrl, name)).toBe(true);
  });

  it('leaves an existing database and its data alone', async () => {
    const url = await ensureDatabase(serverUrl, name);
    const client = new Client(url);
    await client.connect();
    await client.query('CREATE TABLE kept (id int)');
    await client.end();

    await ensureDatabase(serverUrl, name);

    const again = new Client(url);
    await again.connect();
    const { rowCount } = await again.query(`SELECT 1 FROM pg_tables WHERE tablename = 'kept'`);
    await again.end();
    expect(rowCount).toBe(1);
  });

  it('drops a database even while sessions are connected to it', async () => {
    const url = await ensureDatabase(serverUrl, name);
    const session = new Client(url);
    session.on('error', () => undefined);
    await session.connect();

    await dropDatabase(serverUrl, name);

    expect(await databaseExists(serverUrl, name)).toBe(false);
    await session.end().catch(() => undefined);
  });

  it('does nothing when dropping a database that does not exist', async () => {
    await expect(dropDatabase(serverUrl, name)).resolves.toBeUndefined();
  });

  it('refuses to drop the database the server URL itself connects to', async () => {
    await expect(dropDatabase(databaseUrlFor(serverUrl, 'postgres'), 'postgres')).rejects.toThrow(
      /Refusing to drop/,
    );
  });

  it('fails fast with a clear message when the server does not answer', async () => {
    // Fast: a refused connection is not retried (only a timed-out one is, for CONNECT_PATIENCE_MS),
    // shown by the one connect it makes rather than by a wall-clock bound.
    const connects = jest.spyOn(Client.prototype, 'connect');
    try {
      await expect(ensureDatabase('postgres://postgres:x@127.0.0.1:1/postgres', name)).rejects.toThrow(
        /^Cannot connect to PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/postgres: .*ECONNREFUSED/,
      );
      expect(connects).toHaveBeenCalledTimes(1);
    } finally {
      connects.mockRestore();
    }
  });

  it('connects again when the server is there but too slow to accept (a loaded CI machine)', async () => {
    const proxy = await slowFirstConnectProxy(new URL(serverUrl));
    try {
      const url = await ensureDatabase(proxy.url, name);
      expect(proxy.connections()).toBeGreaterThanOrEqual(2);
      expect(new URL(url).pathname).toBe(`/${name}`);
      expect(await databaseExists(serverUrl, name)).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 20_000);
});

/** A TCP hop to the server that leaves its first connection unanswered, as a stalled server would. */
async function slowFirstConnectProxy(server: URL): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  let connections = 0;
  const proxy: Server = createServer((client) => {
    sockets.push(client);
    client.on('error', () => undefined);
    if (connections++ === 0) return;
    const upstream = connect(Number(server.port || 5432), server.hostname);
    sockets.push(upstream);
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(server.href);
  url.hostname = '127.0.0.1';
  url.port = String((proxy.address() as { port: number }).port);
  return {
    url: url.href,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
