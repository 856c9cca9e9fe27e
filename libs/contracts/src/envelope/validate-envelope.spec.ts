import { CustomerCreated } from '../events/customer-created';
import { CustomerUpdated } from '../events/customer-updated';
import { SAMPLE_EVENT_DATA } from '../testing/sample-event-data';
import { TOPICS } from '../topics/topics';
import { createEvent, validateEnvelope } from './validate-envelope';

const customer = SAMPLE_EVENT_DATA.CUSTOMER_CREATED;

function event(overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) {
  return {
    id: '8a1f0f8e-7f38-4c5e-9a52-3f1f0b6a9c01',
    type: 'CUSTOMER_CREATED',
    source: 'customers-v1',
    companyId: '1000001',
    subject: '10001',
    time: '2025-01-31T09:15:00.123Z',
    data: { ...customer, ...data },
    ...overrides,
  };
}

function problemsOf(raw: unknown, topic?: string): string[] {
  const result = validateEnvelope(raw, { topic });
  if (result.valid) throw new Error('expected problems, got a valid event');
  return result.problems;
}

describe('validateEnvelope', () => {
  it('accepts a customer event as bytes, as JSON text and as an object, typed by its type', () => {
    for (const raw of [Buffer.from(JSON.stringify(event())), JSON.stringify(event()), event()]) {
      const result = validateEnvelope(raw, { topic: TOPICS.customers });
      expect(result.valid).toBe(true);
      if (!result.valid) return;
      expect(result.event.type).toBe('CUSTOMER_CREATED');
      expect(result.event.data).toBeInstanceOf(CustomerCreated.Data);
      expect(result.event.data).toEqual(customer);
    }
  });

  it('accepts a customer without a currency (null)', () => {
    expect(validateEnvelope(event({}, { currencyId: null })).valid).toBe(true);
  });

  it('keeps fields the contract does not know, so producers can add optional fields', () => {
    const result = validateEnvelope(event({ traceId: 'abc' }, { newField: 1 }));
    expect(result.valid).toBe(true);
    if (result.valid) expect(result.event.data).toMatchObject({ newField: 1 });
  });

  it('refuses what is not a JSON object', () => {
    expect(problemsOf('{"id":')[0]).toMatch(/^not JSON/);
    expect(problemsOf(Buffer.from('[1,2]'))).toEqual(['the message is not a JSON object']);
    expect(problemsOf('null')).toEqual(['the message is not a JSON object']);
  });

  it('names every bad envelope field', () => {
    const problems = problemsOf({ id: 'not-a-uuid', type: 'customer created', time: 'yesterday', data: 'x' });
    for (const field of ['id', 'type', 'source', 'companyId', 'subject', 'time', 'data']) {
      expect(problems.some((p) => p.startsWith(`${field}:`))).toBe(true);
    }
  });

  it('refuses a time without a zone, which consumers could not order reliably', () => {
    expect(problemsOf(event({ time: '2025-01-31T09:15:00' }))).toEqual([
      'time: time must carry a zone (Z or an offset)',
    ]);
  });

  it('refuses an unknown event type and a type that belongs to another topic', () => {
    expect(problemsOf(event({ type: 'CUSTOMER_DELETED' }))).toEqual(['type: unknown event type CUSTOMER_DELETED']);
    expect(problemsOf(event(), TOPICS.salesOrders)).toEqual([
      `type: CUSTOMER_CREATED belongs to ${TOPICS.customers}, not ${TOPICS.salesOrders}`,
    ]);
  });

  it('validates data against the class of the type, with paths under data.', () => {
    const problems = problemsOf(event({}, { status: 'Sleeping', name: '', link: '/v1/order/1', version: 'abc' }));
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'data.link',
      'data.name',
      'data.status',
      'data.version',
    ]);
    expect(problemsOf(event({}, { currencyId: 'kroner' }))).toEqual([
      'data.currencyId: currencyId must be an ISO 4217 code or null',
    ]);
  });
});

describe('createEvent', () => {
  it('builds a valid envelope with a fresh id and the current time', () => {
    const before = Date.now();
    const created = createEvent({
      type: CustomerUpdated.TYPE,
      source: 'customers-v1',
      companyId: '1000001',
      subject: '10001',
      data: customer,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.time)).toBeGreaterThanOrEqual(before);
    expect(validateEnvelope(created, { topic: CustomerUpdated.TOPIC }).valid).toBe(true);
    const other = createEvent({ ...created, id: undefined, time: new Date(0) });
    expect(other.id).not.toBe(created.id);
    expect(other.time).toBe('1970-01-01T00:00:00.000Z');
  });
});
