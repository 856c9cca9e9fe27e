export * as SalesOrderDeleted from './sales-order-deleted.event';
