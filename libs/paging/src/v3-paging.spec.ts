import { ValidationFailedError } from '@erp/errors';
import { parseV3Paging, v3NextPage, v3PageBodyFromJson, v3PageChunks, V3_MAX_PAGE_INDEX } from './v3-paging';

const ORDERS = { defaultPageSize: 100, maxPageSize: 1000, expandedMaxPageSize: 100 };
const LINES = { defaultPageSize: 1000, maxPageSize: 1000 };

function problemOf(fn: () => unknown): { field: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationFailedError);
    return (err as ValidationFailedError).fieldProblems[0];
  }
  throw new Error('expected a ValidationFailedError');
}

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

async function* items(...values: string[]): AsyncGenerator<string> {
  for (const v of values) yield v;
}

describe('parseV3Paging', () => {
  it('defaults to pageIndex 0 and the endpoint default pageSize', () => {
    expect(parseV3Paging({}, ORDERS)).toEqual({ pageIndex: 0, pageSize: 100, offset: 0, maxPageSize: 1000 });
    expect(parseV3Paging({}, LINES)).toEqual({ pageIndex: 0, pageSize: 1000, offset: 0, maxPageSize: 1000 });
  });

  it('treats pageIndex as 0-based: index 2 at size 25 starts at record 51', () => {
    expect(parseV3Paging({ pageIndex: '2', pageSize: '25' }, ORDERS)).toMatchObject({ pageIndex: 2, pageSize: 25, offset: 50 });
  });

  it('cuts a pageSize above the maximum to the maximum instead of refusing it', () => {
    expect(parseV3Paging({ pageSize: '5000' }, ORDERS).pageSize).toBe(1000);
    expect(parseV3Paging({ pageSize: '99999999999999999999' }, ORDERS).pageSize).toBe(1000);
  });

  it('caps the effective maximum at 100 whenever anything is expanded, default included', () => {
    expect(parseV3Paging({ pageSize: '1000' }, ORDERS, { expanded: true })).toMatchObject({ pageSize: 100, maxPageSize: 100 });
    expect(parseV3Paging({}, ORDERS, { expanded: true }).pageSize).toBe(100);
    expect(parseV3Paging({ pageSize: '10' }, ORDERS, { expanded: true }).pageSize).toBe(10);
  });

  it('ignores the expand cap on endpoints that have none', () => {
    expect(parseV3Paging({ pageSize: '1000' }, LINES, { expanded: true }).pageSize).toBe(1000);
  });

  it.each([
    ['pageSize', '-1'],
    ['pageSize', '1.5'],
    ['pageSize', 'ten'],
    ['pageSize', ''],
    ['pageSize', '0'],
    ['pageSize', '1e3'],
    ['pageIndex', '-1'],
    ['pageIndex', '0.5'],
    ['pageIndex', ' 1'],
    ['pageIndex', String(V3_MAX_PAGE_INDEX + 1)],
  ])('refuses %s=%j with a 400 naming the parameter', (name, value) => {
    expect(problemOf(() => parseV3Paging({ [name]: value }, ORDERS)).field).toBe(name);
  });

  it('refuses a repeated paging parameter', () => {
    expect(problemOf(() => parseV3Paging({ pageIndex: ['1', '2'] }, ORDERS)).message).toBe('must be given once');
  });
});

describe('v3NextPage', () => {
  const page = (pageIndex: number, pageSize: number) => ({ pageIndex, pageSize, offset: pageIndex * pageSize, maxPageSize: 1000 });

  it('repeats every filter in order with the effective pageSize and the next pageIndex', () => {
    expect(v3NextPage('/api/v3/SalesOrders/SO', 'status=Open&pageSize=5000&customerId=10001&pageIndex=0', page(0, 1000), 2500)).toBe(
      '/api/v3/SalesOrders/SO?status=Open&customerId=10001&pageSize=1000&pageIndex=1',
    );
  });

  it('keeps repeated values and encodes spaces, plus signs and commas', () => {
    expect(
      v3NextPage('/api/v3/SalesOrders', 'expand=lines&expand=customer,note&orderBy=created+desc&modifiedSince=2026-01-01T00:00:00%2B02:00', page(1, 10), 100),
    ).toBe(
      '/api/v3/SalesOrders?expand=lines&expand=customer%2Cnote&orderBy=created%20desc&modifiedSince=2026-01-01T00%3A00%3A00%2B02%3A00&pageSize=10&pageIndex=2',
    );
  });

  it('adds pageSize and pageIndex when the client relied on the defaults', () => {
    expect(v3NextPage('/api/v3/SalesOrders', '', page(0, 100), 101)).toBe('/api/v3/SalesOrders?pageSize=100&pageIndex=1');
  });

  it('is null on the last page, on an exactly full last page, and past the end', () => {
    expect(v3NextPage('/p', '', page(3, 100), 350)).toBeNull();
    expect(v3NextPage('/p', '', page(2, 100), 300)).toBeNull();
    expect(v3NextPage('/p', '', page(9, 100), 350)).toBeNull();
    expect(v3NextPage('/p', '', page(0, 100), 0)).toBeNull();
  });
});

describe('v3 envelope', () => {
  it('builds { value, totalCount, nextPage } around JSON text', () => {
    const body = v3PageBodyFromJson(['{"a":1}', '{"a":2}'], 7, '/p?pageSize=2&pageIndex=1');
    expect(JSON.parse(body)).toEqual({ value: [{ a: 1 }, { a: 2 }], totalCount: 7, nextPage: '/p?pageSize=2&pageIndex=1' });
    expect(JSON.parse(v3PageBodyFromJson([], 0, null))).toEqual({ value: [], totalCount: 0, nextPage: null });
  });

  it('streams the same envelope, coalescing small items into chunks', async () => {
    const chunks = await collect(v3PageChunks(items('{"a":1}', '{"a":2}', '{"a":3}'), 3, null, 16));
    expect(chunks.length).toBeGreaterThan(1);
    expect(JSON.parse(chunks.join(''))).toEqual({ value: [{ a: 1 }, { a: 2 }, { a: 3 }], totalCount: 3, nextPage: null });
  });

  it('streams an empty page', async () => {
    expect((await collect(v3PageChunks(items(), 0, null))).join('')).toBe('{"value":[],"totalCount":0,"nextPage":null}');
  });

  it('yields a large item as soon as it arrives rather than holding several', async () => {
    const big = `{"x":"${'y'.repeat(1000)}"}`;
    const chunks = await collect(v3PageChunks(items(big, big, big), 3, null, 512));
    expect(chunks).toHaveLength(4);
    expect(chunks[0]).toBe(`{"value":[${big}`);
  });
});
