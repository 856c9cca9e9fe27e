import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const A = '1000001';
let t: CustomersTestApp;
let headers: Record<string, string>;

interface Customer {
  internalId: number;
  number: string;
  name: string;
  status: string;
  mainAddress: Record<string, unknown> | null;
  mainContact: Record<string, unknown> | null;
  corporateId: string | null;
  currencyId: string | null;
  creditTerms: Record<string, unknown> | null;
  createdDateTime: string;
  lastModifiedDateTime: string;
  timeStamp: string;
}

function post(body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return t.http.request('/v1/customer', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function put(number: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return t.http.request(`/v1/customer/${number}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function get(number: string): Promise<{ response: Response; body: Customer }> {
  const response = await t.http.request(`/v1/customer/${number}`, { headers });
  return { response, body: (await response.json()) as Customer };
}

async function rowSnapshot(): Promise<unknown[]> {
  return (await t.sql.query(`SELECT * FROM customers ORDER BY internal_id`)).rows;
}

describe('customers-v1 create, read, update', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp();
    headers = await t.auth.headers({ company: A });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('creates a customer: 201 with Location, ETag and the record; number assigned by the company sequence', async () => {
    const response = await post({
      name: 'Acme AS',
      mainAddress: { addressLine1: 'Storgata 1', postalCode: '0155', city: 'Oslo', country: { id: 'NO', name: 'Norway' } },
      mainContact: { name: 'Kari Nordmann', email: 'kari@acme.example', phone1: '+47 22 00 00 00' },
      corporateId: '999888777',
      vatRegistrationId: 'NO999888777MVA',
      currencyId: 'NOK',
      creditTerms: { id: '30D', description: '30 days' },
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Customer;
    expect(body.number).toBe('10001');
    expect(response.headers.get('location')).toBe('/v1/customer/10001');
    expect(response.headers.get('etag')).toBe(`"${body.timeStamp}"`);
    expect(body).toMatchObject({
      name: 'Acme AS',
      status: 'Active',
      mainAddress: { city: 'Oslo', country: { id: 'NO', name: 'Norway' } },
      currencyId: 'NOK',
      creditTerms: { id: '30D', description: '30 days' },
    });
    expect(body.createdDateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(body.createdDateTime).toBe(body.lastModifiedDateTime);

    const second = (await (await post({ name: 'Second' })).json()) as Customer;
    expect(second.number).toBe('10002');
  });

  it('accepts fields wrapped as { value } the way existing v1 clients send them', async () => {
    const response = await post({
      name: { value: 'Wrapped Ltd' },
      status: { value: 'OnHold' },
      mainAddress: { value: { city: { value: 'Bergen' }, country: { value: { id: { value: 'NO' } } } } },
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Customer;
    expect(body).toMatchObject({ name: 'Wrapped Ltd', status: 'OnHold', mainAddress: { city: 'Bergen', country: { id: 'NO' } } });
  });

  it('uses a client-chosen number and refuses a duplicate with 400', async () => {
    expect((await post({ number: 'C-100', name: 'Chosen' })).status).toBe(201);
    const duplicate = await post({ number: 'C-100', name: 'Again' });
    expect(duplicate.status).toBe(400);
    expect(((await duplicate.json()) as { ExceptionMessage: string }).ExceptionMessage).toContain('C-100');
  });

  it('skips numbers a client already took when assigning from the sequence', async () => {
    const next = Number(((await (await post({ name: 'Probe' })).json()) as Customer).number) + 1;
    expect((await post({ number: String(next), name: 'Taken by hand' })).status).toBe(201);
    const assigned = (await (await post({ name: 'After the gap' })).json()) as Customer;
    expect(assigned.number).toBe(String(next + 1));
  });

  it('reads one customer with its ETag', async () => {
    const { response, body } = await get('10001');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${body.timeStamp}"`);
    expect(body.name).toBe('Acme AS');
  });

  it('answers a GET whose If-None-Match holds the current ETag with 304 and no body; a stale one in full', async () => {
    const etag = (await get('10001')).response.headers.get('etag')!;
    const unchanged = await t.http.request('/v1/customer/10001', { headers: { ...headers, 'if-none-match': etag } });
    expect([unchanged.status, unchanged.headers.get('etag'), await unchanged.text()]).toEqual([304, etag, '']);
    const stale = await t.http.request('/v1/customer/10001', { headers: { ...headers, 'if-none-match': '"0"' } });
    expect([stale.status, ((await stale.json()) as Customer).number]).toEqual([200, '10001']);
  });

  it('updates only the fields present: 204 with a new ETag; nested objects are merged', async () => {
    const before = await get('10001');
    const response = await put('10001', { name: 'Acme Holding AS', mainAddress: { city: 'Drammen' } });
    expect(response.status).toBe(204);
    const etag = response.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(etag).not.toBe(before.response.headers.get('etag'));
    const after = await get('10001');
    expect(after.response.headers.get('etag')).toBe(etag);
    expect(after.body).toMatchObject({
      name: 'Acme Holding AS',
      mainAddress: { addressLine1: 'Storgata 1', city: 'Drammen', country: { id: 'NO' } },
      mainContact: before.body.mainContact,
      corporateId: '999888777',
      createdDateTime: before.body.createdDateTime,
    });
    expect(after.body.lastModifiedDateTime >= before.body.lastModifiedDateTime).toBe(true);
  });

  it('clears an optional field sent as null', async () => {
    expect((await put('10001', { corporateId: null })).status).toBe(204);
    expect((await get('10001')).body.corporateId).toBeNull();
  });

  it('succeeds without If-Match (optional in v1) and with the current ETag or *', async () => {
    expect((await put('10002', { status: 'OnHold' })).status).toBe(204);
    const current = (await get('10002')).response.headers.get('etag')!;
    expect((await put('10002', { status: 'Active' }, { 'if-match': current })).status).toBe(204);
    expect((await put('10002', { status: 'Inactive' }, { 'if-match': '*' })).status).toBe(204);
    expect((await get('10002')).body.status).toBe('Inactive');
  });

  it('answers 412 to a stale If-Match and changes nothing', async () => {
    const stale = (await get('10002')).response.headers.get('etag')!;
    expect((await put('10002', { name: 'First writer' }, { 'if-match': stale })).status).toBe(204);
    const snapshot = await rowSnapshot();
    const response = await put('10002', { name: 'Second writer' }, { 'if-match': stale });
    expect(response.status).toBe(412);
    expect(((await response.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBe('10301');
    expect(await rowSnapshot()).toEqual(snapshot);
  });

  it('never matches a weak or garbage If-Match', async () => {
    const current = (await get('10002')).response.headers.get('etag')!;
    for (const ifMatch of [`W/${current}`, '"not-a-version"', '"99999999999999999999999"']) {
      expect((await put('10002', { name: 'x' }, { 'if-match': ifMatch })).status).toBe(412);
    }
  });

  it('answers 404 to PUT of a customer that does not exist, and refuses to change a number', async () => {
    expect((await put('NOPE', { name: 'x' })).status).toBe(404);
    const renumber = await put('10001', { number: '55555' });
    expect(renumber.status).toBe(400);
  });

  describe('bad input: 400 in the v1 error shape, nothing changed', () => {
    const cases: Array<[string, unknown]> = [
      ['malformed JSON', '{"name": "Acme",'],
      ['a JSON array', '[1,2,3]'],
      ['a name of the wrong type', { name: 42 }],
      ['a missing name', { status: 'Active' }],
      ['an empty name', { name: '' }],
      ['an unknown status', { name: 'X', status: 'Sleeping' }],
      ['an over-long name', { name: 'x'.repeat(256) }],
      ['an over-long nested string', { name: 'X', mainAddress: { city: 'y'.repeat(101) } }],
      ['a bad email', { name: 'X', mainContact: { email: 'not-an-email' } }],
      ['a bad country code', { name: 'X', mainAddress: { country: { id: 'Norway' } } }],
      ['a bad currency', { name: 'X', currencyId: 'kroner' }],
      ['an unknown field', { name: 'X', favouriteColour: 'blue' }],
      ['an unknown nested field', { name: 'X', mainAddress: { planet: 'Earth' } }],
      ['a bad number', { number: '../etc/passwd', name: 'X' }],
      ['an object where a string belongs', { name: { first: 'A', last: 'B' } }],
      ['null for a required field', { name: null }],
    ];

    it.each(cases)('refuses %s on POST', async (_label, body) => {
      const snapshot = await rowSnapshot();
      const response = await post(body);
      expect(response.status).toBe(400);
      const error = (await response.json()) as Record<string, string>;
      expect(error.ExceptionType).toBe('ValidationException');
      expect(error.ExceptionMessage.length).toBeGreaterThan(0);
      expect(error.ExceptionMessageID).toMatch(/^\d+_[0-9a-f-]{36}$/);
      expect(await rowSnapshot()).toEqual(snapshot);
    });

    it('lists every bad field in one message', async () => {
      const response = await post({ name: '', status: 'Nope', currencyId: 'x', extra: 1 });
      const message = ((await response.json()) as { ExceptionMessage: string }).ExceptionMessage;
      for (const field of ['name', 'status', 'currencyId', 'extra']) expect(message).toContain(field);
    });

    it('refuses bad PUT bodies without changing the record', async () => {
      const snapshot = await rowSnapshot();
      for (const body of ['{oops', { status: 'Sleeping' }, { name: null }, { name: 'x'.repeat(256) }, { unknown: true }]) {
        expect((await put('10001', body)).status).toBe(400);
      }
      expect(await rowSnapshot()).toEqual(snapshot);
    });

    it('refuses a JSON body that is not an object (null, array, string, number) with a 400, on PUT and POST, changing nothing', async () => {
      const snapshot = await rowSnapshot();
      for (const body of ['null', '[]', '[{"name":"x"}]', '"Acme"', '42', 'true']) {
        for (const response of [await put('10001', body), await post(body)]) {
          expect({ body, status: response.status }).toEqual({ body, status: 400 });
          expect(((await response.json()) as { ExceptionMessage: string }).ExceptionMessage).toContain('JSON object');
        }
      }
      expect(await rowSnapshot()).toEqual(snapshot);
    });

    it('answers 415 to a body that is not JSON', async () => {
      const response = await post('name=Acme', { 'content-type': 'application/x-www-form-urlencoded' });
      expect([400, 415]).toContain(response.status);
      const xml = await post('<customer/>', { 'content-type': 'application/xml' });
      expect(xml.status).toBe(415);
      expect(((await xml.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBe('10402');
    });

    it('answers 413 to a body over the limit', async () => {
      const response = await post({ name: 'X', padding: 'x'.repeat(2 * 1024 * 1024) });
      expect(response.status).toBe(413);
    });

    it('answers 404 in the v1 shape for unknown paths and 405-style for unknown methods', async () => {
      const response = await t.http.request('/v1/customer/10001/nothing-here', { headers });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBeDefined();
      const del = await t.http.request('/v1/customer/10001', { method: 'DELETE', headers });
      expect([404, 405]).toContain(del.status);
    });
  });
});
