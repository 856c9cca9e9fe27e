import { ApiError } from '@erp/errors';
import { parseV1Paging, v1PageBodyFromJson, v1PageChunks, withV1Metadata } from './v1-paging';

function failureOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('parseV1Paging', () => {
  it('defaults to page 1 with the endpoint maximum as page size', () => {
    expect(parseV1Paging({}, 1000)).toEqual({ pageNumber: 1, pageSize: 1000, offset: 0, maxPageSize: 1000 });
  });

  it('returns only the default number of records when pageSize exceeds the maximum', () => {
    expect(parseV1Paging({ pageSize: '5000' }, 500).pageSize).toBe(500);
  });

  it('keeps a pageSize below the maximum', () => {
    expect(parseV1Paging({ pageSize: '25' }, 500).pageSize).toBe(25);
  });

  it('reports the endpoint maximum', () => {
    expect(parseV1Paging({ pageSize: '10' }, 500).maxPageSize).toBe(500);
  });

  it.each(['0', '000', '-1', 'abc', '1.5', '', ' ', '1e3', '0x10', '+5'])(
    'answers 400 naming pageSize for %p',
    (pageSize) => {
      const error = failureOf(() => parseV1Paging({ pageSize }, 100));
      expect(error.status).toBe(400);
      expect(error.fieldProblems[0].field).toBe('pageSize');
    },
  );

  it.each(['1000000000', '99999999999999999999', '0100'])(
    'cuts a pageSize of %p, a positive integer above the maximum, to the maximum',
    (pageSize) => {
      expect(parseV1Paging({ pageSize }, 100).pageSize).toBe(100);
    },
  );

  it('clamps an enormous pageNumber to a page past the end instead of refusing it', () => {
    const page = parseV1Paging({ pageNumber: '99999999999999999999', pageSize: '10' }, 100);
    expect(page.pageNumber).toBe(1_000_000_000);
    expect(Number.isSafeInteger(page.offset)).toBe(true);
  });

  it.each(['0', '-1', 'abc', '1.5', ''])('answers 400 naming pageNumber for %p', (pageNumber) => {
    const error = failureOf(() => parseV1Paging({ pageNumber }, 100));
    expect(error.status).toBe(400);
    expect(error.fieldProblems[0].field).toBe('pageNumber');
  });

  it.each(['pageSize', 'pageNumber'])('answers 400 when %s is repeated', (name) => {
    const error = failureOf(() => parseV1Paging({ [name]: ['1', '2'] }, 100));
    expect(error.status).toBe(400);
    expect(error.fieldProblems[0].field).toBe(name);
  });

  it('starts page n at (n - 1) * pageSize', () => {
    expect(parseV1Paging({ pageNumber: '4', pageSize: '100' }, 1000).offset).toBe(300);
  });

  it('pages with the cut page size when pageSize exceeds the maximum', () => {
    expect(parseV1Paging({ pageNumber: '2', pageSize: '9999' }, 500).offset).toBe(500);
  });

  it('follows the spec example: pageSize 3 page 1 gives records 1-3, then pageSize 5 page 2 gives records 6-10', () => {
    const first = parseV1Paging({ pageNumber: '1', pageSize: '3' }, 1000);
    const second = parseV1Paging({ pageNumber: '2', pageSize: '5' }, 1000);
    expect([first.offset + 1, first.offset + first.pageSize]).toEqual([1, 3]);
    expect([second.offset + 1, second.offset + second.pageSize]).toEqual([6, 10]);
  });

  it('covers 350 records at pageSize 100 with four pages', () => {
    const offsets = [1, 2, 3, 4].map(
      (n) => parseV1Paging({ pageNumber: String(n), pageSize: '100' }, 1000).offset,
    );
    expect(offsets).toEqual([0, 100, 200, 300]);
  });

  it('keeps the offset of the largest accepted page number exact', () => {
    const { offset } = parseV1Paging({ pageNumber: '999999999', pageSize: '1000' }, 1000);
    expect(Number.isSafeInteger(offset)).toBe(true);
    expect(offset).toBe(999999998000);
  });
});

describe('withV1Metadata', () => {
  it('puts the same metadata on every record', () => {
    const body = withV1Metadata([{ number: '1' }, { number: '2' }], 350, 100);
    expect(body).toEqual([
      { number: '1', metadata: { totalCount: 350, maxPageSize: 100 } },
      { number: '2', metadata: { totalCount: 350, maxPageSize: 100 } },
    ]);
  });

  it('leaves the input records unchanged', () => {
    const record = { number: '1' };
    withV1Metadata([record], 1, 100);
    expect(record).toEqual({ number: '1' });
  });

  it('is a bare empty array for a page past the end', () => {
    expect(withV1Metadata([], 350, 100)).toEqual([]);
  });
});

describe('v1PageBodyFromJson', () => {
  const records = [
    { number: '10001', name: 'Acme "quoted" }', mainAddress: { city: 'Oslo', country: { id: 'NO' } } },
    { number: '10002', name: 'Beta', tags: [1, 2, { x: null }] },
  ];

  it('is valid JSON equal to what withV1Metadata gives for the parsed records', () => {
    const text = v1PageBodyFromJson(
      records.map((r) => JSON.stringify(r)),
      2,
      1000,
    );
    expect(JSON.parse(text)).toEqual(withV1Metadata(records, 2, 1000));
  });

  it('handles a record that is an empty object', () => {
    expect(JSON.parse(v1PageBodyFromJson(['{}'], 1, 10))).toEqual([
      { metadata: { totalCount: 1, maxPageSize: 10 } },
    ]);
  });

  it('is the bare empty array for an empty page', () => {
    expect(v1PageBodyFromJson([], 350, 100)).toBe('[]');
  });
});

describe('v1PageChunks', () => {
  async function* arriving(records: string[]): AsyncGenerator<string> {
    for (const record of records) yield record;
  }

  it('streams exactly the text v1PageBodyFromJson builds, whatever the chunk size', async () => {
    const records = ['{"number":"1","name":"Å"}', '{}', '{"number":"3","nested":{"a":[1,2]}}'];
    for (const chunkChars of [1, 10, 64 * 1024]) {
      const chunks: string[] = [];
      for await (const chunk of v1PageChunks(arriving(records), 350, 100, chunkChars)) chunks.push(chunk);
      expect(chunks.join('')).toBe(v1PageBodyFromJson(records, 350, 100));
      if (chunkChars === 1) expect(chunks.length).toBe(records.length + 1);
    }
  });
});
