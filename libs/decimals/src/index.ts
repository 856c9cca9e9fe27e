export * from './decimal-rule';
export * from './decimal-validators';
export * from './decimal-rule-cases';
