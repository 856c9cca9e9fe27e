import { TOPICS } from '../../topics/topics';
import { CustomerEventData } from '../customer/customer-event.data';

/** A customer was created (POST /v1/customer). */
export const TYPE = 'CUSTOMER_CREATED';
export const TOPIC = TOPICS.customers;

export class Data extends CustomerEventData {}
