export * from './order-model';
export * from './sales-order-list.query';
export * from './sales-orders.queries';
export * from './order-json';
export * from './order-lines.queries';
export * from './order-page-stream';
export * from './order-list-cells';
