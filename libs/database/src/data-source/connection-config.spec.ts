import { DataSource } from 'typeorm';
import { connectionConfigOf } from './connection-config';
import { dataSourceOptions } from './create-data-source';

describe('connectionConfigOf', () => {
  const base = { url: 'postgres://u:p@pooler:6432/customers', entities: [], migrations: [], applicationName: 'customers-v1' };

  it('reuses the DataSource’s server and credentials under its own application name, with no other startup parameter', () => {
    const config = connectionConfigOf(new DataSource(dataSourceOptions(base)), 'customers-v1-outbox-relay', 'pooled');

    expect(config).toMatchObject({ connectionString: 'postgres://u:p@pooler:6432/customers', application_name: 'customers-v1-outbox-relay' });
    expect(config).not.toHaveProperty('statement_timeout');
    expect(config).not.toHaveProperty('idle_in_transaction_session_timeout');
  });

  it('gives LISTEN the session URL when there is one, and the pooled URL otherwise', () => {
    const direct = 'postgres://u:p@db:5432/customers';
    const withSession = new DataSource(dataSourceOptions({ ...base, sessionUrl: direct }));
    const without = new DataSource(dataSourceOptions(base));

    expect(connectionConfigOf(withSession, 'listen', 'session').connectionString).toBe(direct);
    expect(connectionConfigOf(withSession, 'work', 'pooled').connectionString).toBe(base.url);
    expect(connectionConfigOf(without, 'listen', 'session').connectionString).toBe(base.url);
  });
});
