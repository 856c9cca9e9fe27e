import { DRIVER_SETTINGS, type TransactionScopedPg } from '../tenancy/transaction-scoped-pg';
import { dataSourceOptions } from './create-data-source';

const settingsOf = (options: ReturnType<typeof dataSourceOptions>) => (options.driver as TransactionScopedPg | undefined)?.[DRIVER_SETTINGS];

describe('dataSourceOptions', () => {
  const base = {
    url: 'postgres://u:p@h:5432/db',
    entities: [],
    migrations: [],
    applicationName: 'customers-v1',
  };

  it('never synchronises or runs migrations on initialise, and records them in "migrations"', () => {
    expect(dataSourceOptions(base)).toMatchObject({
      type: 'postgres',
      synchronize: false,
      migrationsRun: false,
      dropSchema: false,
      migrationsTableName: 'migrations',
      migrationsTransactionMode: 'each',
    });
  });

  it('names the application, bounds connect and statement time and defaults the pool to 10', () => {
    const options = dataSourceOptions(base);

    expect(options.applicationName).toBe('customers-v1');
    expect(options.poolSize).toBe(10);
    expect(options.connectTimeoutMS).toBe(5_000);
    expect(settingsOf(options)).toMatchObject({ statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 });
  });

  it('sends no startup parameter a transaction-mode pooler refuses: timeouts go with each transaction', () => {
    const options = dataSourceOptions(base);

    expect(Object.keys(options.extra as object).sort()).toEqual(['idleTimeoutMillis', 'keepAlive']);
  });

  it('binds company scopes to <db>_app only with tenant isolation, and migrations not at all', () => {
    expect(settingsOf(dataSourceOptions(base))?.tenantRole).toBeUndefined();
    expect(settingsOf(dataSourceOptions({ ...base, tenantIsolation: true }))?.tenantRole).toBe('db_app');
    expect(dataSourceOptions({ ...base, purpose: 'migrations' }).driver).toBeUndefined();
  });

  it('takes the pool size, logging and statement timeout it is given', () => {
    const options = dataSourceOptions({ ...base, poolSize: 3, logging: true, statementTimeoutMs: 0 });

    expect(options).toMatchObject({ poolSize: 3, logging: true });
    expect(settingsOf(options)?.statementTimeoutMs).toBe(0);
  });
});
