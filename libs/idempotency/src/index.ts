export { fingerprintOf, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER, keyProblem, MAX_KEY_LENGTH, type RequestFacts } from './idempotency-key';
export { IdempotencyInterceptor, KEYED_REQUEST, RAW_JSON_BODY } from './idempotency.interceptor';
export { IdempotencyModule, type IdempotencyOptions, KeyedAnswers } from './idempotency.module';
export { currentKeyedRequest, KEY_IN_USE_RETRY_AFTER_SECONDS, KeyedRequest, keyedWrite, whenCommitted, writeTransaction } from './keyed-request';
export { type KeyScope, type StoredAnswer } from './stored-answers';
export { CreateIdempotencyKeys1797000000000 } from './migrations/1797000000000-create-idempotency-keys.migration';
