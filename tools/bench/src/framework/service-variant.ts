import { randomBytes } from 'node:crypto';
import { freePort } from '@erp/database';
import { SERVICES, spawnTs, waitForReady } from '@erp/dev';
import type { BenchContext } from './scenario';

export interface ServiceVariant {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * One more process of a service beside the bench's system, on the same database and Kafka, with
 * `env` on top of what the system gives it (a setting switched for a comparison in the same run).
 * Its consumers are off: the system's own process keeps the data, this one only answers requests.
 */
export async function startServiceVariant(context: BenchContext, service: string, label: string, env: Record<string, string>): Promise<ServiceVariant> {
  const spec = SERVICES.find((s) => s.name === service);
  if (!spec) throw new Error(`${service} is not in the catalog`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawnTs(
    `${service} (${label})`,
    `${spec.dir}/src/main.ts`,
    {
      AUTH_PUBLIC_KEY: context.keys.publicKeyPem,
      KAFKA_BROKERS: context.kafkaBrokers.join(','),
      KAFKA_CONSUMER_GROUPS_OFF: '*',
      LOG_PRETTY: 'false',
      DATABASE_URL: context.databaseUrls[service],
      // It serves the internal API too; nothing calls this extra process's, so a secret of its own.
      INTERNAL_API_SECRET: randomBytes(32).toString('base64url'),
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    { quiet: true, nodeArgs: spec.nodeArgs },
  );
  await waitForReady(`${url}/health/ready`, proc);
  return { url, pid: proc.child.pid ?? 0, stop: () => proc.stop('SIGTERM') };
}
