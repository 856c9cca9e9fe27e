import { type ClassReference, migrateDatabase } from '@erp/database';
import { loadConfig, ServiceConfig } from './config';

export interface MigrateOptions {
  /** The app's name, in the output and the connection's application_name (`<service>-migrate`). */
  service: string;
  entities: ClassReference[];
  migrations: ClassReference[];
}

/**
 * A service's `migrate.ts` entry: applies its pending migrations and exits, 0 on success and 1
 * with the reason otherwise. Run by `npm start` before each service and as the Kubernetes
 * migration Job. It reads only the shared ServiceConfig (DATABASE_URL): the Job needs no Kafka,
 * storage or other settings of the service.
 */
export function runMigrate(options: MigrateOptions): void {
  void migrate(options).catch((err: unknown) => {
    process.stderr.write(`${options.service} migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

async function migrate({ service, entities, migrations }: MigrateOptions): Promise<void> {
  const config = loadConfig(ServiceConfig);
  const applied = await migrateDatabase({ url: config.DATABASE_URL, entities, migrations, applicationName: `${service}-migrate` });
  process.stdout.write(`${service}: ${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
}
