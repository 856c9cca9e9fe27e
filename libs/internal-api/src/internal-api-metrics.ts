import { defineCounter, defineHistogram } from '@erp/observability';

/**
 * Calls to other services' internal APIs, by called service and outcome: `answered`, `not_found`
 * (the owner has no such record for the company), `unavailable` (no answer after the retry: the
 * request that needed it answered 503). A rising `unavailable` means an owner is down or a
 * secret is wrong; the rate of all calls shows how often events arrive after the next request.
 * `off_contract` counts, among the answered, those this service could not read (another version
 * of the called service broke the internal contract): they too ended in a 503.
 */
export const internalCalls = defineCounter<'target' | 'outcome'>({
  name: 'internal_api_calls_total',
  help: 'Calls to another service internal API, by called service and outcome (answered, not_found, unavailable; off_contract among answered)',
  labelNames: ['target', 'outcome'],
});

/** Time to an answer, the retry included (calls without one are not observed). */
export const internalCallSeconds = defineHistogram<'target'>({
  name: 'internal_api_call_duration_seconds',
  help: 'Time until another service internal API answered, in seconds',
  labelNames: ['target'],
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});
