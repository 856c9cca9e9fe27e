import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root (tools/cli/src/test-support -> ../../../..). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');
const MAIN = 'tools/cli/src/main.ts';

export interface CliResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Variables of the runner's environment that change what the CLI prints. Nx sets FORCE_COLOR for
 * its tasks, and with both it and NO_COLOR set Node warns on stderr (issue 32: `npx nx test cli`
 * failed 16 tests that `npm test` passed). A test that wants colour sets them itself.
 */
const RUNNER_COLOUR_VARIABLES = new Set(['FORCE_COLOR', 'NO_COLOR', 'NODE_DISABLE_COLORS', 'CLICOLOR', 'CLICOLOR_FORCE']);

/** Environment for a run: ours, minus any ERP_* of the developer's shell and the runner's colour settings, plus the test's. */
function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => (!key.startsWith('ERP_') || key === 'ERP_DATA_DIR') && !RUNNER_COLOUR_VARIABLES.has(key)),
  );
  return { ...clean, NO_COLOR: '1', ...env };
}

/** Starts `erp <args>` as a real process (stdin closed, stdout and stderr pipes: not a TTY). */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', MAIN, ...args], { cwd: REPO_ROOT, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Collects a process's output and exit code. */
export function finished(child: ChildProcess): Promise<CliResult> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') }));
  });
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return finished(spawnCli(args, env));
}

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * `erp <args>` under a pseudo-terminal (util-linux `script`), so stdout and stderr are TTYs; the
 * terminal's output (both streams) comes back as `stdout`, the command's exit code as `code`.
 */
export function runCliInTerminal(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const command = [process.execPath, '-r', '@swc-node/register', MAIN, ...args].map(shellQuote).join(' ');
  const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], { cwd: REPO_ROOT, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  return finished(child);
}
