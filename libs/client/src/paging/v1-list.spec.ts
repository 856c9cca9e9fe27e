import { ErpClient } from '../erp-client';

/** A fake v1 list endpoint over an array the test can change between pages; records every request URL. */
function fakeV1(initial: number, options: { maxPageSize?: number; onRequest?(url: URL, records: { id: number }[]): void } = {}) {
  const records = Array.from({ length: initial }, (_, i) => ({ id: i + 1 }));
  const requests: URL[] = [];
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    requests.push(url);
    options.onRequest?.(url, records);
    const pageSize = Math.min(Number(url.searchParams.get('pageSize')), options.maxPageSize ?? 1000);
    const pageNumber = Number(url.searchParams.get('pageNumber'));
    const page = records.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
    const metadata = { totalCount: records.length, maxPageSize: options.maxPageSize ?? 1000 };
    return new Response(JSON.stringify(page.map((r) => ({ ...r, metadata }))), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const client = new ErpClient({ baseUrl: 'http://erp.test', token: 't', companyId: '1', fetch });
  return { client, records, requests };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('v1 list iterator', () => {
  it('sends pageSize and pageNumber on every request, 1-based and consecutive', async () => {
    const { client, requests } = fakeV1(350);
    const records = await collect(client.v1.list('/v1/customer', { pageSize: 100 }));
    expect(records).toHaveLength(350);
    expect(requests.map((u) => [u.searchParams.get('pageSize'), u.searchParams.get('pageNumber')])).toEqual([
      ['100', '1'],
      ['100', '2'],
      ['100', '3'],
      ['100', '4'],
    ]);
  });

  it('stops when the received count reaches totalCount, without asking for an empty page', async () => {
    const { client, requests } = fakeV1(300);
    expect(await collect(client.v1.list('/v1/customer', { pageSize: 100 }))).toHaveLength(300);
    expect(requests).toHaveLength(3);
  });

  it('re-reads totalCount on every page and keeps going when it grows mid-run', async () => {
    // Another writer appends 150 records while page 2 is being read.
    const { client, requests } = fakeV1(250, {
      onRequest: (url, records) => {
        if (url.searchParams.get('pageNumber') === '2') for (let i = 0; i < 150; i++) records.push({ id: records.length + 1 });
      },
    });
    const seen: { pageNumber: number; received: number; totalCount?: number }[] = [];
    const records = await collect(client.v1.list('/v1/customer', { pageSize: 100, onPage: ({ pageNumber, received, totalCount }) => seen.push({ pageNumber, received, totalCount }) }));
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(seen).toEqual([
      { pageNumber: 1, received: 100, totalCount: 250 },
      { pageNumber: 2, received: 200, totalCount: 400 },
      { pageNumber: 3, received: 300, totalCount: 400 },
      { pageNumber: 4, received: 400, totalCount: 400 },
    ]);
    expect(new Set(requests.map((u) => u.searchParams.get('pageSize')))).toEqual(new Set(['100']));
  });

  it('stops at the current totalCount when it shrinks mid-run', async () => {
    const { client, requests } = fakeV1(300, {
      onRequest: (url, records) => {
        if (url.searchParams.get('pageNumber') === '2') records.splice(0, 150);
      },
    });
    const records = await collect(client.v1.list('/v1/customer', { pageSize: 100 }));
    // Page 2 of the shrunk list holds records 251..300 and totalCount is 150: 150 received, done.
    expect(records).toHaveLength(150);
    expect(requests).toHaveLength(2);
  });

  it('stops when a page comes back empty even if totalCount says more', async () => {
    const fetch = (async (input: string | URL) => {
      const pageNumber = Number(new URL(String(input)).searchParams.get('pageNumber'));
      const body = pageNumber === 1 ? [{ id: 1, metadata: { totalCount: 10, maxPageSize: 1000 } }] : [];
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const client = new ErpClient({ baseUrl: 'http://erp.test', token: 't', fetch });
    const pages: number[] = [];
    const records = await collect(client.v1.list('/v1/customer', { pageSize: 1, onPage: (p) => pages.push(p.pageNumber) }));
    expect(records).toEqual([{ id: 1 }]);
    expect(pages).toEqual([1, 2]);
  });

  it('never changes pageSize, even when the server caps it below what was asked', async () => {
    const { client, requests } = fakeV1(250, { maxPageSize: 50 });
    const records = await collect(client.v1.list('/v1/customer', { pageSize: 100 }));
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(requests).toHaveLength(5);
    expect(requests.every((u) => u.searchParams.get('pageSize') === '100')).toBe(true);
  });

  it('sends the same filters on every page, even if the caller changes its object mid-run', async () => {
    const { client, requests } = fakeV1(30);
    const filters: Record<string, string | Date> = { status: 'Active', lastModifiedDateTime: new Date('2026-01-02T03:04:05.006Z') };
    for await (const _ of client.v1.list('/v1/customer', { filters, pageSize: 10 })) {
      filters.status = 'Inactive';
      filters.name = 'x';
    }
    expect(requests).toHaveLength(3);
    for (const url of requests) {
      expect(Object.fromEntries(url.searchParams)).toEqual({
        status: 'Active',
        lastModifiedDateTime: '2026-01-02T03:04:05.006',
        pageSize: '10',
        pageNumber: String(requests.indexOf(url) + 1),
      });
    }
  });

  it('yields records without their list metadata', async () => {
    const { client } = fakeV1(2);
    expect(await collect(client.v1.list('/v1/customer', { pageSize: 10 }))).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('refuses pageSize or pageNumber among the filters, and a pageSize that is not a positive integer', async () => {
    const { client, requests } = fakeV1(2);
    await expect(collect(client.v1.list('/v1/customer', { filters: { pageSize: 5 } }))).rejects.toThrow(TypeError);
    await expect(collect(client.v1.list('/v1/customer', { filters: { pageNumber: 2 } }))).rejects.toThrow(TypeError);
    await expect(collect(client.v1.list('/v1/customer', { pageSize: 0 }))).rejects.toThrow(RangeError);
    await expect(collect(client.v1.list('/v1/customer', { pageSize: 2.5 }))).rejects.toThrow(RangeError);
    expect(requests).toHaveLength(0);
  });

  it('sends a default pageSize when none is given', async () => {
    const { client, requests } = fakeV1(5);
    await collect(client.v1.list('/v1/customer'));
    expect(requests[0].searchParams.get('pageSize')).toBe('100');
    expect(requests[0].searchParams.get('pageNumber')).toBe('1');
  });
});
