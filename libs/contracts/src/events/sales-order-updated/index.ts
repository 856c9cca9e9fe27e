export * as SalesOrderUpdated from './sales-order-updated.event';
