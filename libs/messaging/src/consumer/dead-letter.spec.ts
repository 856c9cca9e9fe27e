import { DEAD_LETTER_HEADERS, deadLetterHeaders } from './dead-letter';

describe('deadLetterHeaders', () => {
  const details = {
    reason: 'handler failed 5 time(s): Error: boom',
    originalTopic: 'erp.customers.customer.v1',
    originalPartition: 2,
    originalOffset: '41',
    consumerGroup: 'sales-orders-v3.customer-snapshot',
    attempts: 5,
  };

  it('keeps the original headers and adds where the message came from and why it was parked', () => {
    const headers = deadLetterHeaders({ 'event-id': Buffer.from('e1') }, details);
    expect(headers['event-id']).toEqual(Buffer.from('e1'));
    expect(headers).toMatchObject({
      [DEAD_LETTER_HEADERS.reason]: 'handler failed 5 time(s): Error: boom',
      [DEAD_LETTER_HEADERS.originalTopic]: 'erp.customers.customer.v1',
      [DEAD_LETTER_HEADERS.originalPartition]: '2',
      [DEAD_LETTER_HEADERS.originalOffset]: '41',
      [DEAD_LETTER_HEADERS.consumerGroup]: 'sales-orders-v3.customer-snapshot',
      [DEAD_LETTER_HEADERS.attempts]: '5',
    });
    expect(Date.parse(String(headers[DEAD_LETTER_HEADERS.deadLetteredAt]))).not.toBeNaN();
  });

  it('cuts a huge reason so the dead letter stays publishable', () => {
    const headers = deadLetterHeaders(undefined, { ...details, reason: 'x'.repeat(100_000) });
    expect(String(headers[DEAD_LETTER_HEADERS.reason]).length).toBe(4_000);
  });
});
