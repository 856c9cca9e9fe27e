export * as SalesOrderCreated from './sales-order-created.event';
