import { dataSourceOptions } from './create-data-source';

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
    expect(options.extra).toMatchObject({ statement_timeout: 30_000 });
  });

  it('takes the pool size, logging and statement timeout it is given', () => {
    const options = dataSourceOptions({ ...base, poolSize: 3, logging: true, statementTimeoutMs: 0 });

    expect(options).toMatchObject({ poolSize: 3, logging: true, extra: { statement_timeout: 0 } });
  });
});
