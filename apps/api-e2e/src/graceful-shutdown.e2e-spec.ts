import { connect } from 'node:net';
import { Client } from 'pg';
import { ensureRuntimeLogin, freePort } from '@erp/database';
import { runTs, spawnTs, waitForReady, type SpawnedProcess } from '@erp/dev';
import {
  createTestDatabase,
  TestAuth,
  testDatabaseServerUrl,
  testKafkaBrokers,
  testTopicPrefix,
  type TestDatabase, PATIENCE_MS } from '@erp/testing';

const COMPANY = '1000001';

/** True once nothing listens on the port any more (a new connection is refused). */
function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/**
 * SIGTERM during a slow request, on the real process (main.ts, runService). The request is slow
 * for real: the test holds a lock on the customers table, so the service's list query waits in
 * PostgreSQL until the test commits. No test hook exists in the service.
 */
describe('graceful shutdown of a service process', () => {
  const auth = new TestAuth();
  let database: TestDatabase;
  let sql: Client;
  let proc: SpawnedProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase('shutdown_customers');
    env = {
      ...auth.serviceEnv,
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: testTopicPrefix('shutdown'),
      LOG_LEVEL: 'warn',
    };
    await runTs('customers-v1 migrate', 'apps/customers-v1/src/migrate.ts', env);
    // The service connects as the runtime login, as it runs in production.
    env = { ...env, DATABASE_URL: await ensureRuntimeLogin(testDatabaseServerUrl(), database.name) };
    sql = new Client({ connectionString: database.url });
    await sql.connect();
    await sql.query(
      `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) VALUES ($1, 'S1', 'Slow Ltd', 'Active', now(), now())`,
      [COMPANY],
    );
  });

  afterAll(async () => {
    await proc?.stop('SIGKILL');
    await sql?.end();
    await database?.drop();
  });

  it('turns not ready at once, then stops accepting, finishes the in-flight request with 200 and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    proc = spawnTs(
      'customers-v1',
      'apps/customers-v1/src/main.ts',
      { ...env, PORT: String(port), HOST: '127.0.0.1' },
      { quiet: true },
    );
    await waitForReady(`${url}/health/ready`, proc);

    await sql.query('BEGIN');
    await sql.query('LOCK TABLE customers IN ACCESS EXCLUSIVE MODE');
    const slow = fetch(`${url}/v1/customer`, { headers: await auth.headers({ company: COMPANY }) });
    await eventually(async () => {
      const { rows } = await sql.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND application_name = 'customers-v1'`,
        [database.name],
      );
      return (rows[0]?.waiting ?? 0) > 0;
    }, 'the list query waits for the lock');

    proc.child.kill('SIGTERM');
    // Readiness turns red at once, while the listener still answers (load balancers take the
    // replica out before it stops accepting); what it answers closes the connection.
    await eventually(async () => (await fetch(`${url}/health/ready`)).status === 503, 'readiness answers 503');
    const live = await fetch(`${url}/health/live`);
    expect(live.status).toBe(200);
    expect(live.headers.get('connection')).toBe('close');
    expect(await refusesConnections(port)).toBe(false);
    await eventually(() => refusesConnections(port), 'the service stops accepting connections');
    let exited = false;
    void proc.exited.then(() => (exited = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(exited).toBe(false); // still draining: the request has not finished

    await sql.query('COMMIT');
    const response = await slow;
    expect(response.status).toBe(200);
    expect(((await response.json()) as Array<{ number: string }>).map((c) => c.number)).toEqual(['S1']);
    expect(await proc.exited).toBe(0);
  });
});
