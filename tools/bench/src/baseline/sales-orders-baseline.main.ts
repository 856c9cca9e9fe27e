import { createSalesOrdersBaseline } from './sales-orders-baseline';
import { requiredDatabaseUrl, serveBaseline } from './serve-baseline';

/** The baseline as its own process (as the services run): DATABASE_URL, PORT, HOST. */
serveBaseline('sales-orders-baseline', createSalesOrdersBaseline({ databaseUrl: requiredDatabaseUrl('sales-orders-baseline') }));
