import { freePort } from '@erp/database';
import { spawnTs, waitForReady } from '@erp/dev';

export interface RunningBaseline {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a baseline server (`<name>.main.ts`: its `env`, e.g. DATABASE_URL, plus PORT and HOST) as
 * its own process, as the services run, so its CPU and RSS are measured the same way as theirs.
 */
export async function spawnBaseline(name: string, mainFile: string, env: Record<string, string>): Promise<RunningBaseline> {
  const port = await freePort();
  const proc = spawnTs(name, mainFile, { ...env, PORT: String(port), HOST: '127.0.0.1' }, { quiet: true });
  const url = `http://127.0.0.1:${port}`;
  await waitForReady(`${url}/health/ready`, proc);
  return { url, pid: proc.child.pid ?? 0, stop: () => proc.stop('SIGTERM') };
}
