import { TOPICS } from '../../topics/topics';
import { CustomerEventData } from '../customer/customer-event.data';

/** A customer was changed (PUT /v1/customer/{number}); `data` is the customer after the change. */
export const TYPE = 'CUSTOMER_UPDATED';
export const TOPIC = TOPICS.customers;

export class Data extends CustomerEventData {}
