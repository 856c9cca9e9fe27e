export * from './v1-paging';
export * from './v1-date-filter';
