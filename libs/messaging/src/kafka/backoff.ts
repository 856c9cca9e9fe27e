// The backoff maths live once, next to the background loop in @erp/database; the consumer's
// retries use them through this path.
export { backoffDelay, type BackoffOptions, sleep } from '@erp/database';
