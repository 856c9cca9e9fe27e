import { ref, type Schemas } from '@erp/openapi';
import { ORDER_TYPE_CODES } from '@erp/sales-orders-queries';

/** Small schema builders the sales-orders documents share. */
export type Schema = Schemas[string];
export const text = (maxLength?: number): Schema => ({ type: ['string', 'null'], ...(maxLength ? { maxLength } : {}) });
export const dateTime: Schema = { type: 'string', format: 'date-time', description: 'UTC', examples: ['2026-01-31T00:00:00.000Z'] };
export const nullableDateTime: Schema = { ...dateTime, type: ['string', 'null'] };
export const decimal = (description?: string): Schema => ({ type: 'number', ...(description ? { description } : {}) });
export const orderType: Schema = { type: 'string', enum: [...ORDER_TYPE_CODES], description: 'SO sales order, QT quote, IN invoice, CM credit memo' };
export const envelope = (item: string, description: string): Schema => ({
  type: 'object',
  description,
  required: ['value', 'totalCount', 'nextPage'],
  properties: {
    value: { type: 'array', items: ref(item) },
    totalCount: { type: 'integer' },
    nextPage: { type: ['string', 'null'], description: 'Path and query of the next page; null on the last' },
  },
});
