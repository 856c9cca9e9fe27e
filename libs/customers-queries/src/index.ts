export * from './customer-status';
export * from './customer-list.query';
export * from './customers.queries';
export * from './customer-time-buckets.queries';
export * from './customer-name-counts.queries';
export * from './read-customer-page';
export * from './customers-v3.queries';
export * from './stream-customer-page';
