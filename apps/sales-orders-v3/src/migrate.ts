import 'reflect-metadata';
import { runMigrate } from '@erp/bootstrap';
import { SALES_ORDERS_ENTITIES, SALES_ORDERS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
runMigrate({ service: 'sales-orders-v3', entities: SALES_ORDERS_ENTITIES, migrations: SALES_ORDERS_MIGRATIONS });
