import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@erp/database';
import { createTestDatabase, TestAuth, testKafkaBrokers, testTopicPrefix, type TestDatabase } from '@erp/testing';
import { buildApp, REPO_ROOT, type BuildResult } from './build-app';

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs a compiled entry point with plain Node: no SWC hook, no TypeScript, no path aliases. */
function runNode(cwd: string, entry: string, env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
}

async function waitForStatus(url: string, run: Run, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (run.child.exitCode !== null)
      throw new Error(`exited ${run.child.exitCode} before ready:\n${run.output()}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready at ${url}:\n${run.output()}`);
}

/** What the Dockerfile's build stage runs, proven without Docker. */
describe('buildApp (the image build step)', () => {
  const outDir = join(REPO_ROOT, 'dist', 'test', `customers-v1-${process.pid}`);
  const auth = new TestAuth();
  let result: BuildResult;
  let database: TestDatabase;

  beforeAll(async () => {
    [result, database] = await Promise.all([
      buildApp('customers-v1', { outDir }),
      createTestDatabase('build_customers'),
    ]);
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('compiles the entry points and only the workspace files they reach', () => {
    expect(result.entries).toEqual(['main.js', 'migrate.js']);
    expect(result.sources).toContain('apps/customers-v1/src/main.ts');
    expect(result.sources).toContain('libs/bootstrap/src/index.ts');
    expect(
      result.sources.filter(
        (s) => /\.(int-|e2e-)?spec\.ts$/.test(s) || s.startsWith('libs/testing/') || s.startsWith('tools/'),
      ),
    ).toEqual([]);
  });

  it('rewrites the @erp/* aliases to relative requires', () => {
    const module = readFileSync(join(outDir, 'apps/customers-v1/src/app.module.js'), 'utf8');
    expect(module).not.toMatch(/require\("@erp\//);
    expect(module).toContain('require("../../../libs/observability/src")');
  });

  it('migrates, serves and shuts down cleanly as plain JavaScript', async () => {
    const env = {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: testTopicPrefix('build'),
      ...auth.serviceEnv,
      LOG_LEVEL: 'warn',
    };
    const migrate = runNode(outDir, 'migrate.js', env);
    expect(await migrate.exited).toBe(0);
    expect(migrate.output()).toContain('migration(s) applied');

    const port = await freePort();
    const server = runNode(outDir, 'main.js', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    try {
      await waitForStatus(`http://127.0.0.1:${port}/health/ready`, server);
      const list = await fetch(`http://127.0.0.1:${port}/v1/customer`, { headers: await auth.headers() });
      expect(list.status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain(
        'http_request_duration_seconds',
      );
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });
});
