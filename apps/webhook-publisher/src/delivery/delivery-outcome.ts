import { defineCounter } from '@erp/observability';
import { nextRetryDelay, type RetryPolicy } from './retry-schedule';

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'gone';

/** Attempts by outcome: delivered (2xx), retry (scheduled again), failed (no retry left), gone (410). */
export const webhookAttempts = defineCounter<'outcome'>({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry, failed (no retry left), gone (410, subscription disabled)',
  labelNames: ['outcome'],
});

/** What one POST came to: the answer's status, or the error when there was none. */
export interface AttemptResult {
  attemptedAt: Date;
  status?: number;
  /** The receiver's `Retry-After` (429/503). */
  retryAfterMs?: number;
  error?: string;
  latencyMs: number;
}

/** An attempt as it is recorded. */
export interface JudgedAttempt extends AttemptResult {
  /** 1 for the first attempt. */
  attempt: number;
  outcome: AttemptOutcome;
  /** The error text kept in the log: the transport error, or `HTTP <status>` for a failed answer. */
  errorText: string | null;
  /** The pause before the next attempt; undefined when there is none. */
  delayMs?: number;
}

const ERROR_TEXT_MAX = 500;

/**
 * 2xx is delivered; 410 is gone (no retry: the subscription is disabled); anything else, or no
 * answer, is retried on the schedule (or after `Retry-After`) while retries are left, else failed.
 */
export function judgeAttempt(previousAttempts: number, result: AttemptResult, retry: RetryPolicy): JudgedAttempt {
  const attempt = previousAttempts + 1;
  const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
  const gone = result.status === 410;
  const errorText = (result.error ?? (delivered ? undefined : `HTTP ${result.status}`))?.slice(0, ERROR_TEXT_MAX) ?? null;
  const delayMs = delivered || gone ? undefined : nextRetryDelay(retry, attempt, result.retryAfterMs);
  const outcome: AttemptOutcome = delivered ? 'delivered' : gone ? 'gone' : delayMs === undefined ? 'failed' : 'retry';
  return { ...result, attempt, outcome, errorText, delayMs };
}
