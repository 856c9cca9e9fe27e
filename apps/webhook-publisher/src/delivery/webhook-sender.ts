import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { guardedLookup, isPrivateAddress } from '../targets/target-policy';
import type { AttemptResult } from './delivery-outcome';
import { startDeliverySpan } from './delivery-tracing';
import type { ClaimedDelivery } from './delivery.repository';
import { parseRetryAfter } from './retry-schedule';
import { signedHeaders } from './signing';

export interface WebhookSenderOptions {
  /** Whole-request timeout of one attempt. */
  timeoutMs: number;
  /** Attempts in flight at once (sizes the connection pool). */
  concurrency: number;
  /** Connect to private/loopback/link-local addresses (embedded default and tests only). */
  allowPrivateTargets: boolean;
}

/** An error as one line for the attempt log and the worker's warnings: a timeout says so, a cause is appended. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timed out: ${error.message}`;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/**
 * Sends one attempt of a delivery: the signed POST of the event, traced when tracing is on. It
 * never throws for the receiver's sake: no answer (timeout, refused address, connection error)
 * is an error in the result, for the worker to judge and record.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly o: WebhookSenderOptions) {
    // Keep-alive pooling per origin; every new connection resolves the host again and refuses
    // private addresses (DNS rebinding cannot get past the check made at subscription time).
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connections: Math.max(4, o.concurrency),
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      connect: o.allowPrivateTargets ? { timeout: o.timeoutMs } : { timeout: o.timeoutMs, lookup: guardedLookup },
    });
  }

  async send(row: ClaimedDelivery): Promise<AttemptResult> {
    const body = JSON.stringify({
      id: row.event_id,
      type: row.type,
      publisher: row.publisher,
      companyId: row.company_id,
      timestamp: row.occurred_at,
      data: row.data,
    });
    const attemptedAt = new Date();
    const secrets = row.previous_secret_valid && row.previous_secret ? [row.secret, row.previous_secret] : [row.secret];
    const headers = signedHeaders({
      messageId: row.event_id,
      timestamp: attemptedAt,
      body,
      secrets,
      subscriptionId: row.subscription_id,
      companyId: row.company_id,
    });
    // With tracing on: a client span per attempt, and `traceparent` on the request.
    const span = startDeliverySpan({
      traceContext: row.trace_context,
      url: row.url,
      subscriptionId: row.subscription_id,
      eventId: row.event_id,
      eventType: row.type,
      companyId: row.company_id,
      attempt: row.attempts + 1,
    });
    if (span) Object.assign(headers, span.headers);
    const started = performance.now();
    let status: number | undefined;
    let retryAfterMs: number | undefined;
    let error: string | undefined;
    try {
      const host = new URL(row.url).hostname.replace(/^\[|\]$/g, '');
      // An IP literal is connected to without a lookup, so it is checked here.
      if (!this.o.allowPrivateTargets && isIP(host) && isPrivateAddress(host)) {
        throw new Error(`refused to connect to ${host}: a private, loopback or link-local address`);
      }
      const response = await request(row.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      status = response.statusCode;
      if (status === 429 || status === 503) retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    } catch (caught) {
      error = messageOf(caught);
    }
    const latencyMs = Math.round(performance.now() - started);
    span?.end({ status, error });
    return { attemptedAt, status, retryAfterMs, error, latencyMs };
  }

  /** Closes the pooled connections. */
  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
