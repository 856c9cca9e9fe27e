import { EVENT_TYPE_PATTERN } from '../envelope/event-envelope';
import { TOPIC_NAME_PATTERN, TOPICS } from '../topics/topics';
import { EVENT_REGISTRY, EVENT_TYPES, eventTypesOf, isEventType, topicOf } from './event-registry';

describe('topics and the event registry', () => {
  it('names every topic erp.<service>.<entity>.v<major>', () => {
    expect(Object.values(TOPICS)).toEqual([
      'erp.customers.customer.v1',
      'erp.supplier-invoices.supplier-invoice.v1',
      'erp.attachments.attachment.v1',
      'erp.sales-orders.sales-order.v3',
    ]);
    for (const topic of Object.values(TOPICS)) expect(topic).toMatch(TOPIC_NAME_PATTERN);
  });

  it('registers each event under its own type name, on a known topic', () => {
    for (const type of EVENT_TYPES) {
      expect(type).toMatch(EVENT_TYPE_PATTERN);
      expect(EVENT_REGISTRY[type].TYPE).toBe(type);
      expect(Object.values(TOPICS)).toContain(topicOf(type));
    }
  });

  it('puts the customer events on the customer topic', () => {
    expect(eventTypesOf(TOPICS.customers).sort()).toEqual(['CUSTOMER_CREATED', 'CUSTOMER_UPDATED']);
    expect(isEventType('CUSTOMER_CREATED')).toBe(true);
    expect(isEventType('toString')).toBe(false);
  });
});
