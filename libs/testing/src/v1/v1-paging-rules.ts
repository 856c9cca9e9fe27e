import type { RecordingFetch } from '../http/recording-fetch';

/** What the shared v1 paging rules need from the list endpoint under test. */
export interface V1PagingFixture {
  http: RecordingFetch;
  /** Headers of a caller of the company the records are inserted for. */
  headers: Record<string, string>;
  /** Inserts `count` records in creation order (straight into the table: fast). */
  insert(count: number, tag: string): Promise<void>;
  /** Deletes the records inserted with `tag`. */
  remove(tag: string): Promise<void>;
}

export interface V1PagingRulesOptions {
  /** The list path, e.g. `/v1/customer`. */
  path: string;
  /** The record field that identifies a record, e.g. `number`. */
  idField: string;
  /**
   * The maximum pageSize the app under test is configured with. Keep it small (e.g. 120) so the
   * "above the maximum" cases stay cheap; it must be below 350 and at least 100.
   */
  maxPageSize: number;
  /** Starts the app and returns the fixture; called once in beforeAll. */
  start(): Promise<V1PagingFixture>;
  /** Stops what start() started; called once in afterAll. */
  stop(): Promise<void>;
}

interface Row {
  metadata: { totalCount: number; maxPageSize: number };
  [field: string]: unknown;
}

const RECORDS = 350;

/**
 * The v1 paging rules of the specification as one shared suite, run against any v1 list endpoint
 * (every v1 list must behave the same): 350 records at pageSize 100 read as 100/100/100/50;
 * metadata on every record; pageSize above the maximum (however large) cut to it; defaults; the "pageSize 3 then
 * 5 returns records 6 to 10" example; disjoint pages; a page past the end; totalCount recomputed
 * on every request; bad paging values refused with 400 in the v1 error shape.
 */
export function describeV1PagingRules(title: string, options: V1PagingRulesOptions): void {
  describe(title, () => {
    let f: V1PagingFixture;
    let allIds: string[];

    const page = async (query: string): Promise<{ status: number; body: Row[] }> => {
      const response = await f.http.request(`${options.path}?${query}`, { headers: f.headers });
      return { status: response.status, body: (await response.json()) as Row[] };
    };
    const ids = (rows: Row[]) => rows.map((r) => String(r[options.idField]));

    beforeAll(async () => {
      f = await options.start();
      await f.insert(RECORDS, 'P');
      allIds = [];
      for (let n = 1; allIds.length < RECORDS; n++) allIds.push(...ids((await page(`pageSize=50&pageNumber=${n}`)).body));
    });
    afterAll(async () => {
      if (!f) return;
      expect(f.http.serverErrors()).toEqual([]);
      await options.stop();
    });

    it('reads 350 records at pageSize 100 in 4 requests holding 100, 100, 100 and 50', async () => {
      const sizes: number[] = [];
      const seen = new Set<string>();
      let received = 0;
      let totalCount = Infinity;
      for (let pageNumber = 1; received < totalCount; pageNumber++) {
        const { status, body } = await page(`pageSize=100&pageNumber=${pageNumber}`);
        expect(status).toBe(200);
        if (body.length === 0) break;
        sizes.push(body.length);
        received += body.length;
        ids(body).forEach((id) => seen.add(id));
        totalCount = body[0].metadata.totalCount;
      }
      expect(sizes).toEqual([100, 100, 100, 50]);
      expect(seen.size).toBe(RECORDS);
    });

    it('reports totalCount and maxPageSize on every record', async () => {
      const { body } = await page('pageSize=10&pageNumber=2');
      expect(body).toHaveLength(10);
      for (const record of body) expect(record.metadata).toEqual({ totalCount: RECORDS, maxPageSize: options.maxPageSize });
    });

    it.each(['5000', '99999999999999999999'])(
      'returns only the maximum number of records when pageSize %s exceeds the maximum',
      async (pageSize) => {
        const { status, body } = await page(`pageSize=${pageSize}&pageNumber=1`);
        expect(status).toBe(200);
        expect(body).toHaveLength(options.maxPageSize);
        expect(body[0].metadata.maxPageSize).toBe(options.maxPageSize);
      },
    );

    it('uses the maximum as the default pageSize and 1 as the default pageNumber', async () => {
      const defaults = await page('');
      const explicit = await page(`pageSize=${options.maxPageSize}&pageNumber=1`);
      expect(defaults.body).toHaveLength(options.maxPageSize);
      expect(ids(defaults.body)).toEqual(ids(explicit.body));
    });

    it('returns records 6 to 10 when page 1 was read at pageSize 3 and page 2 at pageSize 5', async () => {
      const first = await page('pageSize=3&pageNumber=1');
      const second = await page('pageSize=5&pageNumber=2');
      expect(ids(first.body)).toEqual(allIds.slice(0, 3));
      expect(ids(second.body)).toEqual(allIds.slice(5, 10));
    });

    it('keeps pages disjoint and gap-free while the data is unchanged', async () => {
      const all: string[] = [];
      for (let n = 1; n <= 12; n++) all.push(...ids((await page(`pageSize=30&pageNumber=${n}`)).body));
      expect(all).toEqual(allIds);
      expect(new Set(all).size).toBe(RECORDS);
    });

    it.each(['99', '99999999999999999999'])('answers page %s (past the end) with 200 and an empty array', async (pageNumber) => {
      const { status, body } = await page(`pageSize=100&pageNumber=${pageNumber}`);
      expect(status).toBe(200);
      expect(body).toEqual([]);
    });

    it('recomputes totalCount on every request, so records added between pages are counted', async () => {
      const before = await page('pageSize=100&pageNumber=1');
      await f.insert(7, 'N');
      try {
        const after = await page('pageSize=100&pageNumber=2');
        expect(after.body[0].metadata.totalCount).toBe(before.body[0].metadata.totalCount + 7);
      } finally {
        await f.remove('N');
      }
    });

    it.each([
      ['pageNumber=0', 'pageNumber'],
      ['pageNumber=-1', 'pageNumber'],
      ['pageNumber=abc', 'pageNumber'],
      ['pageNumber=1.5', 'pageNumber'],
      ['pageNumber=', 'pageNumber'],
      ['pageNumber=1&pageNumber=2', 'pageNumber'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=-5', 'pageSize'],
      ['pageSize=ten', 'pageSize'],
      ['pageSize=1e2', 'pageSize'],
    ])('refuses %s with 400 naming %s in the v1 error shape', async (query, parameter) => {
      const response = await f.http.request(`${options.path}?${query}`, { headers: f.headers });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        ExceptionType: 'ValidationException',
        ExceptionMessage: expect.stringContaining(parameter),
        ExceptionFaultCode: '10001',
        ExceptionMessageID: expect.stringMatching(/^10001_[0-9a-f-]{36}$/),
        ExceptionDetails: '',
      });
    });

    it('refuses an unknown query parameter with 400 naming it, so a misspelt filter never returns everything', async () => {
      const response = await f.http.request(`${options.path}?pageSzie=10`, { headers: f.headers });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { ExceptionMessage: string }).ExceptionMessage).toContain('pageSzie');
    });
  });
}
