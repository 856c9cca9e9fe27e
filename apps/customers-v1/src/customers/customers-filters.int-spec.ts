import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

interface CustomerRow {
  number: string;
  name: string;
  status: string;
  lastModifiedDateTime: string;
  createdDateTime: string;
  metadata: { totalCount: number };
}

const COMPANY = '1000001';
let t: CustomersTestApp;
let headers: Record<string, string>;

async function list(query: string): Promise<CustomerRow[]> {
  const response = await t.http.request(`/v1/customer?${query}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as CustomerRow[];
}

const numbers = (rows: CustomerRow[]) => rows.map((r) => r.number);

describe('GET /v1/customer filters', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp();
    headers = await t.auth.headers({ company: COMPANY });
    // Fixed timestamps make every comparison operator checkable to the millisecond.
    await t.sql.query(
      `INSERT INTO customers (company_id, number, name, status, corporate_id, vat_registration_id, created_at, last_modified_at) VALUES
       ($1, 'F1', 'Acme Industries',  'Active',   'ORG-1', 'NO111', '2026-01-01T00:00:00Z', '2026-03-01T10:00:00.000Z'),
       ($1, 'F2', 'ACME Shipping',    'OnHold',   'ORG-2', 'NO222', '2026-01-02T00:00:00Z', '2026-03-01T10:00:00.500Z'),
       ($1, 'F3', 'Nordic Timber',    'Active',   'ORG-3', 'NO333', '2026-01-03T00:00:00Z', '2026-03-02T00:00:00.000Z'),
       ($1, 'F4', '100% Pure_Water',  'Inactive', 'ORG-1', 'NO444', '2026-01-04T00:00:00Z', '2026-03-03T00:00:00.000Z'),
       ($1, 'F5', 'Fjord Fisheries',  'CreditHold', NULL,  NULL,    '2026-01-05T00:00:00Z', '2026-03-04T00:00:00.000Z'),
       ('2000002', 'F6', 'Acme Elsewhere', 'Active', 'ORG-1', 'NO111', '2026-01-01T00:00:00Z', '2026-03-01T10:00:00Z')`,
      [COMPANY],
    );
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('filters by name as a case-insensitive substring', async () => {
    expect(numbers(await list('name=acme'))).toEqual(['F1', 'F2']);
    expect(numbers(await list('name=TIMB'))).toEqual(['F3']);
  });

  it('treats % and _ in the name filter as literal characters', async () => {
    expect(numbers(await list(`name=${encodeURIComponent('100%')}`))).toEqual(['F4']);
    expect(numbers(await list(`name=${encodeURIComponent('%')}`))).toEqual(['F4']);
    expect(numbers(await list('name=e_W'))).toEqual(['F4']);
    expect(numbers(await list('name=e_S'))).toEqual([]);
  });

  it('filters by status, corporateId and vatRegistrationId exactly', async () => {
    expect(numbers(await list('status=Active'))).toEqual(['F1', 'F3']);
    expect(numbers(await list('status=CreditHold'))).toEqual(['F5']);
    expect(numbers(await list('corporateId=ORG-1'))).toEqual(['F1', 'F4']);
    expect(numbers(await list('vatRegistrationId=NO333'))).toEqual(['F3']);
  });

  it.each([
    ['>', ['F2', 'F3', 'F4', 'F5']],
    ['>=', ['F1', 'F2', 'F3', 'F4', 'F5']],
    ['<', []],
    ['<=', ['F1']],
    ['=', ['F1']],
  ])('applies lastModifiedDateTimeCondition %s', async (operator, expected) => {
    const rows = await list(
      `lastModifiedDateTime=2026-03-01T10:00:00.000&lastModifiedDateTimeCondition=${encodeURIComponent(operator)}`,
    );
    expect(numbers(rows)).toEqual(expected);
  });

  it('defaults the condition to >= and reads the timestamp as UTC', async () => {
    expect(numbers(await list('lastModifiedDateTime=2026-03-02T00:00:00'))).toEqual(['F3', 'F4', 'F5']);
    expect(numbers(await list('lastModifiedDateTime=2026-03-02'))).toEqual(['F3', 'F4', 'F5']);
  });

  it('compares to the millisecond', async () => {
    const condition = encodeURIComponent('=');
    expect(numbers(await list(`lastModifiedDateTime=2026-03-01T10:00:00.5&lastModifiedDateTimeCondition=${condition}`))).toEqual(['F2']);
  });

  it('filters by createdDateTime with its own condition', async () => {
    const lt = encodeURIComponent('<');
    expect(numbers(await list(`createdDateTime=2026-01-03T00:00:00&createdDateTimeCondition=${lt}`))).toEqual(['F1', 'F2']);
  });

  it('returns a record’s lastModifiedDateTime in a form the filter accepts back unchanged', async () => {
    const [first] = await list('name=Nordic');
    const eq = encodeURIComponent('=');
    const again = await list(`lastModifiedDateTime=${first.lastModifiedDateTime}&lastModifiedDateTimeCondition=${eq}`);
    expect(numbers(again)).toEqual(['F3']);
  });

  it('combines filters with each other and with paging, totalCount counting the filtered set', async () => {
    const page1 = await list('corporateId=ORG-1&status=Active&pageSize=1&pageNumber=1');
    expect(numbers(page1)).toEqual(['F1']);
    expect(page1[0].metadata.totalCount).toBe(1);

    const nameAndPaging1 = await list('name=e&pageSize=2&pageNumber=1');
    const nameAndPaging2 = await list('name=e&pageSize=2&pageNumber=2');
    const nameAndPaging3 = await list('name=e&pageSize=2&pageNumber=3');
    expect(nameAndPaging1[0].metadata.totalCount).toBe(5);
    expect([...numbers(nameAndPaging1), ...numbers(nameAndPaging2), ...numbers(nameAndPaging3)]).toEqual([
      'F1',
      'F2',
      'F3',
      'F4',
      'F5',
    ]);
  });

  it.each([
    ['status=Sleeping', 'status'],
    ['status=active', 'status'],
    ['lastModifiedDateTime=yesterday', 'lastModifiedDateTime'],
    ['lastModifiedDateTime=2026-02-30T00:00:00', 'lastModifiedDateTime'],
    ['lastModifiedDateTime=2026-03-01T10:00:00&lastModifiedDateTimeCondition=%3D%3D', 'lastModifiedDateTimeCondition'],
    ['createdDateTime=2026-13-01', 'createdDateTime'],
    ['createdDateTimeCondition=LIKE', 'createdDateTimeCondition'],
    ['nmae=Acme', 'nmae'],
    [`name=${'x'.repeat(300)}`, 'name'],
  ])('refuses %s with a 400 naming %s', async (query, parameter) => {
    const response = await t.http.request(`/v1/customer?${query}`, { headers });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { ExceptionMessage: string; ExceptionFaultCode: string };
    expect(body.ExceptionFaultCode).toBe('10001');
    expect(body.ExceptionMessage).toContain(parameter);
  });

  it('never treats filter values as SQL', async () => {
    const rows = await list(`name=${encodeURIComponent("' OR 1=1 --")}`);
    expect(rows).toEqual([]);
    const byCorporate = await list(`corporateId=${encodeURIComponent("ORG-1' OR company_id <> '")}`);
    expect(byCorporate).toEqual([]);
  });

  it.each(['name=%00', 'corporateId=a%00b', 'vatRegistrationId=%00', 'status=Active&name=Acme%00'])(
    'refuses a NUL character (which PostgreSQL cannot store) in %s with a 400 in the v1 shape',
    async (query) => {
      const response = await t.http.request(`/v1/customer?${query}`, { headers });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { ExceptionFaultCode: string; ExceptionMessage: string };
      expect(body.ExceptionFaultCode).toBe('10001');
      expect(body.ExceptionMessage).toContain('NUL');
    },
  );

  it('refuses a NUL character in the path with a 400', async () => {
    const response = await t.http.request('/v1/customer/F1%00', { headers });
    expect(response.status).toBe(400);
  });
});

