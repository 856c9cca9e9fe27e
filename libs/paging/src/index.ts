export * from './v1-paging';
export * from './v1-date-filter';
export * from './v3-paging';
export * from './v3-expand';
export * from './v3-date-time';
export * from './v3-paging-problems';
export * from './bucketed-page';
