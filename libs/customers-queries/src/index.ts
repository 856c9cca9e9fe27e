export * from './customer-status';
export * from './customer-list.query';
export * from './customers.queries';
export * from './customers-v3.queries';
