import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '@erp/database';
import { REPO_ROOT } from '../paths';
import { portVariable, SERVICES } from '../services';

/** The ports and data directory of one `npm start`, each moved off the defaults by its variable. */
export interface NpmStartPlace {
  dataDir: string;
  /** Every variable that moves a port: PORT, each service's (CUSTOMERS_V1_PORT, ...), KAFKA_DEV_BROKER_PORT. */
  ports: Record<string, number>;
}

/** A data directory's own free ports, so the suite never meets a person's `npm start` on 3000. */
export async function npmStartPlace(dataDir: string): Promise<NpmStartPlace> {
  const ports: Record<string, number> = { PORT: await freePort(), KAFKA_DEV_BROKER_PORT: await freePort() };
  for (const service of SERVICES) ports[portVariable(service)] = await freePort();
  return { dataDir, ports };
}

/**
 * `npm start` as a person runs it: the real command in a shell's process group of its own, whose
 * Ctrl-C (`interrupt()`) reaches every process in it, as a terminal's does. Its output is kept for
 * the waits below and for the failure message of a test.
 */
export class NpmStartProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  private output = '';
  private readonly waiters = new Set<() => void>();

  constructor(place: NpmStartPlace, options: { root?: string; env?: Record<string, string> } = {}) {
    this.child = spawn('npm', ['start'], {
      cwd: options.root ?? REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ERP_DATA_DIR: place.dataDir,
        ...Object.fromEntries(Object.entries(place.ports).map(([name, port]) => [name, String(port)])),
        LOG_LEVEL: 'warn',
        // The run's shared broker and server are the tests'; a person's npm start has its own.
        KAFKA_BROKERS: '',
        DATABASE_URL: '',
        ...options.env,
      },
    });
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
      for (const wake of this.waiters) wake();
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        resolve(code);
        for (const wake of this.waiters) wake();
      }),
    );
  }

  get text(): string {
    return this.output;
  }

  /** Resolves once the output matches; fails when the process exits first, with its output. */
  async waitFor(pattern: RegExp, what: string): Promise<RegExpMatchArray> {
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `npm start exited (${this.child.exitCode ?? this.child.signalCode}) before ${what}:\n${this.output.slice(-4000)}`,
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
      });
    }
  }

  /** Waits for the banner `npm start` prints once every service and the seed are done. */
  ready(): Promise<RegExpMatchArray> {
    return this.waitFor(/ERP business API is running at (\S+)/, 'it was running');
  }

  /**
   * Ctrl-C in its terminal: SIGINT to the whole process group. Resolves once every process of the
   * group is gone (npm itself leaves at the signal, before its script's children have stopped; the
   * next start must find them stopped, as a person's next prompt does), with what the script said
   * last: `stopped` when it stopped everything it ran.
   */
  async interrupt(): Promise<'stopped' | 'interrupted start-up' | 'not stopped cleanly'> {
    const group = -(this.child.pid as number);
    if (this.child.exitCode === null && this.child.signalCode === null) process.kill(group, 'SIGINT');
    await this.exited;
    while (groupAlive(group)) await new Promise((resolve) => setTimeout(resolve, 100));
    if (/\[dev\] stopped\n/.test(this.output)) return 'stopped';
    if (/\[dev\] start-up interrupted\n/.test(this.output)) return 'interrupted start-up';
    return 'not stopped cleanly';
  }

  /** After a test: nothing of it may outlive the suite. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await this.interrupt();
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(group, 0);
    return true;
  } catch {
    return false;
  }
}
