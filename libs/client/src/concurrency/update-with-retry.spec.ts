import { ErpApiError, ErpConflictError } from '../errors';
import { updateWithRetry } from './update-with-retry';

const conflict = () => new ErpApiError({ status: 412, message: 'stale', body: {}, method: 'PATCH', url: 'http://x/o' });

describe('updateWithRetry', () => {
  it('sends the change computed from the record it read, with that read ETag', async () => {
    const writes: { patch: number; etag: string }[] = [];
    const result = await updateWithRetry({
      resource: 'r',
      read: async () => ({ record: { n: 41 }, etag: '"9"' }),
      change: (current) => current.n + 1,
      write: async (patch, etag) => {
        writes.push({ patch, etag });
        return 'ok';
      },
    });
    expect(result).toBe('ok');
    expect(writes).toEqual([{ patch: 42, etag: '"9"' }]);
  });

  it('on 412 reads again and re-applies the change to the new state', async () => {
    let version = 1;
    const writes: { patch: number; etag: string }[] = [];
    await updateWithRetry({
      resource: 'r',
      read: async () => ({ record: { n: version * 10 }, etag: `"${version}"` }),
      change: (current) => current.n + 1,
      write: async (patch, etag) => {
        writes.push({ patch, etag });
        if (version < 3) {
          version++;
          throw conflict();
        }
      },
    });
    expect(writes).toEqual([
      { patch: 11, etag: '"1"' },
      { patch: 21, etag: '"2"' },
      { patch: 31, etag: '"3"' },
    ]);
  });

  it('gives up after maxAttempts with ErpConflictError carrying the last 412', async () => {
    let reads = 0;
    const error = await updateWithRetry(
      {
        resource: 'sales order SO/000001',
        read: async () => ({ record: ++reads, etag: '"1"' }),
        change: (n) => n,
        write: async () => {
          throw conflict();
        },
      },
      { maxAttempts: 4 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErpConflictError);
    expect(error).toEqual(expect.objectContaining({ attempts: 4, resource: 'sales order SO/000001' }));
    expect((error as ErpConflictError).message).toContain('sales order SO/000001');
    expect((error as ErpConflictError).cause).toBeInstanceOf(ErpApiError);
    expect(reads).toBe(4);
  });

  it('passes any other error through at once', async () => {
    let writes = 0;
    const badRequest = new ErpApiError({ status: 400, message: 'bad', body: {}, method: 'PATCH', url: 'http://x/o' });
    await expect(
      updateWithRetry({
        resource: 'r',
        read: async () => ({ record: 1, etag: '"1"' }),
        change: (n) => n,
        write: async () => {
          writes++;
          throw badRequest;
        },
      }),
    ).rejects.toBe(badRequest);
    expect(writes).toBe(1);
  });

  it('defaults to 5 attempts and refuses a maxAttempts below 1', async () => {
    let writes = 0;
    const op = { resource: 'r', read: async () => ({ record: 1, etag: '"1"' }), change: (n: number) => n, write: async () => { writes++; throw conflict(); } };
    await expect(updateWithRetry(op)).rejects.toBeInstanceOf(ErpConflictError);
    expect(writes).toBe(5);
    await expect(updateWithRetry(op, { maxAttempts: 0 })).rejects.toThrow(RangeError);
  });
});
