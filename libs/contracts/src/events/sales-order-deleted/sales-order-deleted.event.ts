import { TOPICS } from '../../topics/topics';
import { SalesOrderEventData } from '../sales-order/sales-order-event.data';

/**
 * A sales order was deleted (DELETE). `data` is the order as it was, with a new `version` drawn
 * for the deletion (higher than any it had), and a `link` that now answers 404.
 */
export const TYPE = 'SALESORDER_DELETED';
export const TOPIC = TOPICS.salesOrders;

export class Data extends SalesOrderEventData {}
