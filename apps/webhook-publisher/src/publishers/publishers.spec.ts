import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { type DomainEvent, eventDataSchema } from '@erp/contracts';
import { customerEvent, salesOrderEvent } from '../testing/webhooks-test-app';
import { eventTypeProblem, FINANCIALS_PUBLISHER, PUBLISHERS, publisherOf, SALES_ORDER_PUBLISHER } from './publishers';

describe('publishers', () => {
  it('delivers v3 sales order events only through the sales order publisher', () => {
    expect(publisherOf('SALESORDER_UPDATED')).toBe(SALES_ORDER_PUBLISHER);
    expect(publisherOf('CUSTOMER_CREATED')).toBe(FINANCIALS_PUBLISHER);
    expect(eventTypeProblem(SALES_ORDER_PUBLISHER, 'SALESORDER_DELETED')).toBeUndefined();
    expect(eventTypeProblem(FINANCIALS_PUBLISHER, 'SALESORDER_CREATED')).toContain(SALES_ORDER_PUBLISHER);
    expect(eventTypeProblem(SALES_ORDER_PUBLISHER, 'ATTACHMENT_CREATED')).toContain(FINANCIALS_PUBLISHER);
    expect(eventTypeProblem(FINANCIALS_PUBLISHER, 'INVOICE_PAID')).toMatch(/unknown event type/);
  });
});

describe('the catalog schemas', () => {
  const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }));
  const schemaOf = (type: string) => PUBLISHERS.flatMap((p) => p.eventTypes).find((t) => t.type === type)!.schema;

  /** The body webhook-sender POSTs for an event (`{ id, type, publisher, companyId, timestamp, data }`). */
  const body = (event: DomainEvent) => ({
    id: event.id,
    type: event.type,
    publisher: publisherOf(event.type),
    companyId: event.companyId,
    timestamp: '2026-01-31T09:15:00.123Z',
    data: event.data,
  });

  it('wraps the data schema derived from each type\'s contract in the delivery envelope', () => {
    for (const { name, eventTypes } of PUBLISHERS) {
      for (const { type, schema } of eventTypes) {
        expect(() => ajv.compile(schema)).not.toThrow();
        expect(schema).toMatchObject({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          required: ['id', 'type', 'publisher', 'companyId', 'timestamp', 'data'],
          properties: { type: { const: type }, publisher: { const: name }, data: eventDataSchema(type) },
        });
      }
    }
  });

  it('accepts the bodies delivered for events as their services publish them, and refuses broken ones', () => {
    for (const event of [salesOrderEvent('1000001', '000123', 7), customerEvent('1000001', '10001', 7)]) {
      const schema = schemaOf(event.type);
      expect(ajv.validate(schema, body(event))).toBe(true);
      expect(ajv.validate(schema, { ...body(event), data: { ...event.data, version: 'v7' } })).toBe(false);
      expect(ajv.validate(schema, { ...body(event), publisher: 'someone-else' })).toBe(false);
    }
  });
});
