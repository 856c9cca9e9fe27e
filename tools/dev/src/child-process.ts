import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export interface SpawnedProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<void>;
  /** The last output a `quiet` process kept (what it would print if it failed): for a test's failure report. */
  recentOutput(): string;
}

export interface SpawnOptions {
  quiet?: boolean;
  nodeArgs?: string[];
  /** Arguments of the script itself (after its path), e.g. `--phase=contract` for a migrate entry. */
  args?: string[];
  /**
   * The checkout the entry belongs to, run from there with its own node_modules. Default this
   * repository; the upgrade test runs the previous release from a worktree of its own.
   */
  root?: string;
}

/**
 * Runs a TypeScript entry point of the repo as its own Node process (as in production: one
 * process per service), prefixing its output with its name. `quiet` drops output unless the
 * process fails.
 */
export function spawnTs(name: string, entry: string, env: NodeJS.ProcessEnv, options: SpawnOptions = {}): SpawnedProcess {
  return spawnNode(name, ['-r', '@swc-node/register', join(options.root ?? REPO_ROOT, entry), ...(options.args ?? [])], env, options);
}

/**
 * Runs an app's image build (`dist/apps/<app>/main.js` from `npx nx build <app>`) with plain Node
 * as its image does (`node main.js`, source maps on, NODE_ENV=production): what the bench measures
 * with `--build=compiled`. Packages resolve from the repository's node_modules.
 */
export function spawnCompiled(name: string, entry: string, env: NodeJS.ProcessEnv, options: SpawnOptions = {}): SpawnedProcess {
  return spawnNode(name, ['--enable-source-maps', join(REPO_ROOT, entry), ...(options.args ?? [])], { NODE_ENV: 'production', ...env }, options);
}

function spawnNode(name: string, args: string[], env: NodeJS.ProcessEnv, options: SpawnOptions): SpawnedProcess {
  // The process's own Node flags (ServiceSpec.nodeArgs), then ERP_NODE_ARGS: extra flags for every
  // process started here, for flags NODE_OPTIONS refuses (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // to profile a bench run; see BENCHMARKS.md). Later flags win.
  const nodeArgs = [
    ...(options.nodeArgs ?? []),
    ...(env['ERP_NODE_ARGS'] ?? process.env['ERP_NODE_ARGS'] ?? '').split(' ').filter(Boolean),
  ];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: options.root ?? REPO_ROOT,
    // Node's on-disk code cache for the modules it compiles (Nest, TypeORM, ...): a test run starts
    // the whole system about twenty times, and each start loads the same modules in a dozen processes.
    env: { NODE_COMPILE_CACHE: join(REPO_ROOT, '.data', 'node-compile-cache'), ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The last output, printed or not: a quiet process's report when it fails, and the cause named
  // when any process exits before it is ready (waitForReady).
  const captured: string[] = [];
  const forward = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    const text = chunk.toString();
    captured.push(text);
    if (captured.length > 200) captured.shift();
    if (options.quiet) return;
    for (const line of text.split('\n')) if (line) stream.write(`[${name}] ${line}\n`);
  };
  child.stdout?.on('data', forward(process.stdout));
  child.stderr?.on('data', forward(process.stderr));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    child,
    recentOutput: () => captured.join(''),
    exited: exited.then((code) => {
      if (code !== 0 && code !== null && options.quiet) process.stderr.write(`[${name}] exited ${code}:\n${captured.join('')}`);
      return code;
    }),
    async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs an entry point to completion; rejects with its output when it fails. */
export async function runTs(name: string, entry: string, env: NodeJS.ProcessEnv, args: string[] = [], root?: string): Promise<void> {
  await untilExitedOk(spawnTs(name, entry, env, { quiet: true, args, ...(root ? { root } : {}) }));
}

/** Resolves when the process exits 0; rejects naming it otherwise (a quiet one has printed its output). */
export async function untilExitedOk(proc: SpawnedProcess): Promise<void> {
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${proc.name} failed with exit code ${code ?? `(signal ${proc.child.signalCode})`}`);
}

/**
 * Polls a URL until it answers 200 (a service's /health/ready), or fails after the timeout. The
 * default is generous: six services compiling and booting at once on a loaded 2-core machine took
 * over a minute; a process that exits is reported at once anyway.
 */
export async function waitForReady(url: string, proc: SpawnedProcess, timeoutMs = 180_000, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    if (exitCode !== undefined) {
      const cause = lastErrorIn(proc.recentOutput());
      throw new Error(`${proc.name} exited with code ${exitCode} before it was ready${cause ? `: ${cause}` : ''}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${proc.name} was not ready at ${url} within ${timeoutMs} ms`);
}

/**
 * The message of the last error a process logged: pino's JSON lines (`level` 50 or more, `err.message`
 * or `msg`), else the last line that reads like an error. So that "exited before it was ready" names
 * its cause (EADDRINUSE, a refused login) instead of leaving it inside a JSON line above.
 */
export function lastErrorIn(output: string): string | undefined {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  for (const line of [...lines].reverse()) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) >= 50) return entry.err?.message ?? entry.msg;
    } catch {
      if (/\b(error|Error|ERROR|FATAL)\b/.test(line)) return line.trim().slice(0, 300);
    }
  }
  return undefined;
}
