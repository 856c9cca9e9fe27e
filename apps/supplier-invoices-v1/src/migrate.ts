import 'reflect-metadata';
import { runMigrate } from '@erp/bootstrap';
import { SUPPLIER_INVOICES_ENTITIES, SUPPLIER_INVOICES_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
runMigrate({ service: 'supplier-invoices-v1', entities: SUPPLIER_INVOICES_ENTITIES, migrations: SUPPLIER_INVOICES_MIGRATIONS });
