import 'reflect-metadata';
import { runMigrate } from '@erp/bootstrap';
import { CUSTOMERS_ENTITIES, CUSTOMERS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
runMigrate({ service: 'customers-v1', entities: CUSTOMERS_ENTITIES, migrations: CUSTOMERS_MIGRATIONS });
