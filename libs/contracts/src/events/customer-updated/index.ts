export * as CustomerUpdated from './customer-updated.event';
