import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { GATEWAY, SERVICES, type ServiceSpec } from '@erp/dev';
import { PATIENCE_MS } from '@erp/testing';

const ROOT = join(__dirname, '..', '..', '..');

/** Runs an app's real main.ts as `npm start` does and collects what it prints. */
function runMain(dir: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, dir, 'src', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A hang is killed (and fails the test, saying so); six apps loading at once on a busy 2-core
    // machine take tens of seconds (75 s was missed at a load of 22), so the bound is the suites'
    // one patience, not a budget.
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, PATIENCE_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: hung ? `${stderr}\n(still running after ${PATIENCE_MS / 1000} s: killed)` : stderr });
    });
  });
}

const APPS = [...SERVICES, GATEWAY];
const invalidEnv = (spec: ServiceSpec) => ({
  PORT: 'abc',
  ...(spec.database ? { DATABASE_URL: 'mysql://erp:secret-pw@db:3306/erp' } : {}),
});

/** Every app `npm start` runs: a wrong variable stops it at start-up, naming the variable. */
describe('starting an app with invalid configuration', () => {
  // The processes start together (each spends most of its time loading); each test reads one result.
  let results: Map<string, { code: number | null; stderr: string }>;
  beforeAll(async () => {
    results = new Map(
      await Promise.all(
        APPS.map(async (spec) => [spec.name, await runMain(spec.dir, invalidEnv(spec))] as const),
      ),
    );
  }, PATIENCE_MS + 60_000);

  it.each(APPS.map((spec) => [spec.name, spec] as const))(
    '%s exits 1 with a message naming each bad variable',
    (name, spec) => {
      const { code, stderr } = results.get(name) as { code: number | null; stderr: string };
      expect(code).toBe(1);
      expect(stderr).toContain(`${name}: Invalid configuration:`);
      expect(stderr).toMatch(/^ {2}PORT: .*integer/m);
      if (spec.database) expect(stderr).toMatch(/^ {2}DATABASE_URL: /m);
      expect(stderr).not.toMatch(/^ {2}HOST:/m);
      expect(stderr).not.toContain('secret-pw');
    },
  );
});
