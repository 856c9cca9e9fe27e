import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { isTransientConnectionError } from './transient-connection-error';

const pgError = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isTransientConnectionError', () => {
  it.each([
    ['a refused connection', pgError('', 'ECONNREFUSED')],
    ['a refused connection on every address', new AggregateError([pgError('', 'ECONNREFUSED')])],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a server still starting', pgError('starting up', '57P03')],
    ['a server shutting down', pgError('terminating connection', '57P01')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a pg client whose connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['a pg client closed under its caller', new Error('Client was closed and is not queryable')],
    ['a driver error wrapped by TypeORM', new QueryFailedError('SELECT 1', [], pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))],
    ['a driver error on a plain object', { message: 'query failed', driverError: { code: '08001' } }],
    // The transaction's connection emitted 'error' and TypeORM released it (the outage case's 500).
    ['a query on a runner released by a lost connection', new QueryRunnerAlreadyReleasedError()],
    ['a query through a manager whose runner was released', new QueryRunnerProviderAlreadyReleasedError()],
  ])('counts %s as transient', (_label, error) => {
    expect(isTransientConnectionError(error)).toBe(true);
  });

  it.each([
    ['bad credentials', pgError('auth', '28P01')],
    ['a missing database', pgError('no db', '3D000')],
    ['a unique violation wrapped by TypeORM', new QueryFailedError('INSERT', [], pgError('duplicate key', '23505'))],
    ['a mapping error', new Error('Entity metadata for X#y was not found')],
    ['an AggregateError of statement errors', new AggregateError([pgError('syntax', '42601')])],
    ['a string', 'Connection terminated'],
    ['null', null],
  ])('does not count %s', (_label, error) => {
    expect(isTransientConnectionError(error)).toBe(false);
  });
});
