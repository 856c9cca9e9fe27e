import 'reflect-metadata';
import { runMigrate } from '@erp/bootstrap';
import { WEBHOOKS_ENTITIES, WEBHOOKS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
runMigrate({ service: 'webhook-publisher', entities: WEBHOOKS_ENTITIES, migrations: WEBHOOKS_MIGRATIONS });
