import 'reflect-metadata';
import { loadConfig, ServiceConfig } from '@erp/bootstrap';
import { migrateDatabase } from '@erp/database';
import { WEBHOOKS_ENTITIES, WEBHOOKS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
async function main(): Promise<void> {
  // Only the database matters here: the migration Job needs no Kafka settings.
  const config = loadConfig(ServiceConfig);
  const applied = await migrateDatabase({
    url: config.DATABASE_URL,
    entities: WEBHOOKS_ENTITIES,
    migrations: WEBHOOKS_MIGRATIONS,
    applicationName: 'webhook-publisher-migrate',
  });
  process.stdout.write(`webhook-publisher: ${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`webhook-publisher migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
