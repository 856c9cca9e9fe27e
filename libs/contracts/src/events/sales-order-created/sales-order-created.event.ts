import { TOPICS } from '../../topics/topics';
import { SalesOrderEventData } from '../sales-order/sales-order-event.data';

/** A sales order was created (POST /api/v3/SalesOrders). */
export const TYPE = 'SALESORDER_CREATED';
export const TOPIC = TOPICS.salesOrders;

export class Data extends SalesOrderEventData {}
