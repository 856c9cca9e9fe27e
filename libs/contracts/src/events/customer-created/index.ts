export * as CustomerCreated from './customer-created.event';
