import { TOPICS } from '../../topics/topics';
import { SalesOrderEventData } from '../sales-order/sales-order-event.data';

/** A sales order was changed (PATCH, header and/or lines); `data` is the order after the change. */
export const TYPE = 'SALESORDER_UPDATED';
export const TOPIC = TOPICS.salesOrders;

export class Data extends SalesOrderEventData {}
