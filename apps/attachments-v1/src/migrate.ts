import 'reflect-metadata';
import { loadConfig } from '@erp/bootstrap';
import { migrateDatabase } from '@erp/database';
import { AttachmentsConfig } from './config';
import { ATTACHMENTS_ENTITIES, ATTACHMENTS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
async function main(): Promise<void> {
  const config = loadConfig(AttachmentsConfig);
  const applied = await migrateDatabase({
    url: config.DATABASE_URL,
    entities: ATTACHMENTS_ENTITIES,
    migrations: ATTACHMENTS_MIGRATIONS,
    applicationName: 'attachments-v1-migrate',
  });
  process.stdout.write(`attachments-v1: ${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`attachments-v1 migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
