import { createCustomersBaseline } from './customers-baseline';
import { requiredDatabaseUrl, serveBaseline } from './serve-baseline';

/** The baseline as its own process (as the services run): DATABASE_URL, PORT, HOST. */
serveBaseline('customers-baseline', createCustomersBaseline({ databaseUrl: requiredDatabaseUrl('customers-baseline') }));
