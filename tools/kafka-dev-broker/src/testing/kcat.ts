// kcat (librdkafka's command-line client) for the spec that checks the dev broker with a client
// other than kafkajs. It is an operator's tool, not a dependency: where it is missing the spec is
// skipped and says how to get it, as libs/testing's pgbouncer.ts does for PgBouncer.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** What the kcat spec prints when it cannot find kcat. */
export const KCAT_MISSING =
  'kcat not found (KCAT_BIN, PATH): install it (`apt-get install kcat` on Debian/Ubuntu, ' +
  '`brew install kcat` on macOS) or set KCAT_BIN to run the kcat suite of kafka-dev-broker; skipped';

export interface KcatResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The kcat to run: KCAT_BIN, else `kcat` or its old name `kafkacat` on PATH; undefined when none runs. */
export function findKcat(): string | undefined {
  const dirs = (process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean);
  const candidates = [
    process.env['KCAT_BIN'],
    ...dirs.flatMap((dir) => [path.join(dir, 'kcat'), path.join(dir, 'kafkacat')]),
  ];
  return candidates.find(
    (file): file is string => file !== undefined && file !== '' && existsSync(file) && runsAsKcat(file),
  );
}

/**
 * Runs kcat to completion with `input` on its stdin. A run that outlives `timeoutMs` is killed and
 * reported with its output, so a broker that leaves kcat waiting fails the test with a reason.
 */
export function runKcat(
  bin: string,
  args: readonly string[],
  { input = '', timeoutMs = 30_000 }: { input?: string; timeoutMs?: number } = {},
): Promise<KcatResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kcat ${args.join(' ')} still running after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** Whether `file` is a kcat that runs (`-V` prints its version and librdkafka's, exit status 0). */
function runsAsKcat(file: string): boolean {
  return spawnSync(file, ['-V'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
}
