import 'reflect-metadata';
import { runMigrate } from '@erp/bootstrap';
import { ATTACHMENTS_ENTITIES, ATTACHMENTS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
runMigrate({ service: 'attachments-v1', entities: ATTACHMENTS_ENTITIES, migrations: ATTACHMENTS_MIGRATIONS });
