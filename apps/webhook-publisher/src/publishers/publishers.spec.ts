import { eventTypeProblem, FINANCIALS_PUBLISHER, publisherOf, SALES_ORDER_PUBLISHER } from './publishers';

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
