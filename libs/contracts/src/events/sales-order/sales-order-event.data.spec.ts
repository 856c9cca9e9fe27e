import { createEvent, validateEnvelope } from '../../envelope/validate-envelope';
import { eventTypesOf } from '../../registry/event-registry';
import { SAMPLE_EVENT_DATA } from '../../testing/sample-event-data';
import { TOPICS } from '../../topics/topics';
import { salesOrderSubject } from './sales-order-event.data';

function event(type: 'SALESORDER_CREATED' | 'SALESORDER_UPDATED' | 'SALESORDER_DELETED', data: Record<string, unknown>) {
  return createEvent({
    type,
    source: 'sales-orders-v3',
    companyId: '1000001',
    subject: salesOrderSubject('SO', '000123'),
    data: data as never,
  });
}

const DATA = SAMPLE_EVENT_DATA.SALESORDER_UPDATED;

describe('sales-order event contracts', () => {
  it('puts SALESORDER_CREATED, _UPDATED and _DELETED on the v3 sales-order topic', () => {
    expect(eventTypesOf(TOPICS.salesOrders).sort()).toEqual(['SALESORDER_CREATED', 'SALESORDER_DELETED', 'SALESORDER_UPDATED']);
  });

  it('accepts the webhook data shape: type, orderId, customerId, status, version, link', () => {
    for (const type of ['SALESORDER_CREATED', 'SALESORDER_UPDATED', 'SALESORDER_DELETED'] as const) {
      expect(validateEnvelope(event(type, DATA), { topic: TOPICS.salesOrders })).toMatchObject({ valid: true });
    }
    expect(DATA.link).toBe('/api/v3/SalesOrders/SO/000123');
  });

  it('names every problem of a bad payload', () => {
    const result = validateEnvelope(event('SALESORDER_UPDATED', { ...DATA, status: 'Sleeping', version: 'v1', link: '/elsewhere' }));
    expect(result.valid).toBe(false);
    const problems = (result as { problems: string[] }).problems.join('\n');
    for (const field of ['data.status', 'data.version', 'data.link']) expect(problems).toContain(field);
  });
});
