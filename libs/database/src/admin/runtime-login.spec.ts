import { devRuntimePassword } from './runtime-login';

describe('devRuntimePassword', () => {
  it('is the same for one server whatever port it listens on or name it is reached by (npm start picks a port at each start)', () => {
    const first = devRuntimePassword('postgres://postgres:postgres@127.0.0.1:25948/postgres');
    expect(devRuntimePassword('postgres://postgres:postgres@127.0.0.1:31007/postgres')).toBe(first);
    expect(devRuntimePassword('postgres://postgres:postgres@localhost:5432/erp_customers')).toBe(first);
  });

  it('differs with the admin credentials, so nobody without them can build it', () => {
    const first = devRuntimePassword('postgres://postgres:postgres@127.0.0.1:5432/postgres');
    expect(devRuntimePassword('postgres://postgres:other@127.0.0.1:5432/postgres')).not.toBe(first);
    expect(devRuntimePassword('postgres://admin:postgres@127.0.0.1:5432/postgres')).not.toBe(first);
  });
});
