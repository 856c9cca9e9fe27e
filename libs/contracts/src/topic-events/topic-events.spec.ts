import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CustomerEventData } from '../events/customer/customer-event.data';
import { SalesOrderEventData } from '../events/sales-order/sales-order-event.data';
import { SAMPLE_EVENT_DATA } from '../testing/sample-event-data';
import { TOPICS } from '../topics/topics';
import { topicEventEnvelope } from './topic-event-envelope';
import { CustomerEvent, SalesOrderEvent } from './topic-events';

const customerEvent = (overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  id: '8a1f0f8e-7f38-4c5e-9a52-3f1f0b6a9c01',
  type: 'CUSTOMER_UPDATED',
  source: 'customers-v1',
  companyId: '1000001',
  subject: '10001',
  time: '2025-01-31T09:15:00.123Z',
  data: { ...SAMPLE_EVENT_DATA.CUSTOMER_UPDATED, ...data },
  ...overrides,
});

/** What a ValidationPipe with `transform: true` does with a payload, minus Nest. */
function problemsOf<T extends object>(Class: new () => T, plain: object): string[] {
  const errors = validateSync(plainToInstance(Class, plain), { forbidUnknownValues: false });
  const flatten = (list: typeof errors, prefix = ''): string[] =>
    list.flatMap((e) => [
      ...Object.keys(e.constraints ?? {}).map((rule) => `${prefix}${e.property}:${rule}`),
      ...flatten(e.children ?? [], `${prefix}${e.property}.`),
    ]);
  return flatten(errors);
}

describe('topic envelope DTOs (the @Payload() types of event handlers)', () => {
  it('accepts an event of the topic and turns its data into the payload class', () => {
    expect(problemsOf(CustomerEvent, customerEvent())).toEqual([]);
    const event = plainToInstance(CustomerEvent, customerEvent({ type: 'CUSTOMER_CREATED' }));
    expect(event).toBeInstanceOf(CustomerEvent);
    expect(event.data).toBeInstanceOf(CustomerEventData);
  });

  it('keeps fields it does not know (tolerant reader)', () => {
    const plain = customerEvent({ traceNote: 'x' }, { newOptionalField: 1 });
    expect(problemsOf(CustomerEvent, plain)).toEqual([]);
    expect(plainToInstance(CustomerEvent, plain).data).toMatchObject({ newOptionalField: 1 });
  });

  it('refuses a type of another topic, and names the payload problems by path', () => {
    expect(problemsOf(CustomerEvent, customerEvent({ type: 'SALESORDER_CREATED' }))).toEqual(['type:isIn']);
    expect(problemsOf(CustomerEvent, customerEvent({}, { status: 'Sleeping', version: 'v1' }))).toEqual([
      'data.status:isIn',
      'data.version:matches',
    ]);
    expect(problemsOf(CustomerEvent, customerEvent({ id: 'not-a-uuid' }))).toEqual(['id:isUuid']);
  });

  it('checks the data of the topic, not of another one', () => {
    expect(problemsOf(SalesOrderEvent, customerEvent({ type: 'SALESORDER_UPDATED' }))).toEqual(
      expect.arrayContaining(['data.orderId:isNotEmpty', 'data.customerId:isNotEmpty']),
    );
  });

  it('refuses to build an envelope whose payload class is not the topic types’ one', () => {
    expect(() => topicEventEnvelope(TOPICS.customers, SalesOrderEventData)).toThrow(
      'CUSTOMER_CREATED.Data is not the payload class SalesOrderEventData of erp.customers.customer.v1',
    );
  });
});
