import type { ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { driverSettingsOf } from '../tenancy/tenant-binding';
import type { PostgresDataSourceOptions } from './create-data-source';

/**
 * pg settings for a connection of one's own to a DataSource's database (same server, credentials,
 * TLS): `pooled` for work done in transactions (the DataSource's URL, which may be a
 * transaction-mode pooler), `session` for what needs a real server session, LISTEN (its
 * `sessionUrl`, DATABASE_SESSION_URL, when one was given). No startup parameter but
 * `application_name`: a pooler refuses others, and timeouts go with each transaction.
 */
export function connectionConfigOf(dataSource: DataSource, applicationName: string, kind: 'pooled' | 'session'): ClientConfig {
  const options = dataSource.options as PostgresDataSourceOptions;
  const sessionUrl = kind === 'session' ? driverSettingsOf(dataSource)?.sessionUrl : undefined;
  const password = typeof options.password === 'string' ? options.password : undefined;
  // TypeORM and pg type TLS options slightly differently; the value is handed to pg either way.
  const ssl = options.ssl as ClientConfig['ssl'];
  const url = sessionUrl ?? options.url;
  return {
    ...(url
      ? { connectionString: url }
      : { host: options.host, port: options.port, user: options.username, password, database: options.database }),
    ssl,
    application_name: applicationName,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
  };
}
