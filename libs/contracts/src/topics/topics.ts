/**
 * Every Kafka topic of the system, in one place: `erp.<service>.<entity>.v<major>`. The major
 * version changes only for a breaking change to an event on the topic; additive changes (a new
 * optional field, a new event type) stay on the same topic. A service reaches another service's
 * events only through these names.
 */
export const TOPICS = {
  customers: 'erp.customers.customer.v1',
  supplierInvoices: 'erp.supplier-invoices.supplier-invoice.v1',
  attachments: 'erp.attachments.attachment.v1',
  salesOrders: 'erp.sales-orders.sales-order.v3',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** The naming rule, checked by the tests for every topic above. */
export const TOPIC_NAME_PATTERN = /^erp\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.v[1-9][0-9]*$/;

export function isTopicName(value: string): value is TopicName {
  return (Object.values(TOPICS) as string[]).includes(value);
}
