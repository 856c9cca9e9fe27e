/** Every error the client throws for an answer of the API (4xx, 5xx). */
export class ErpApiError extends Error {
  override readonly name: string = 'ErpApiError';
  /** HTTP status. */
  readonly status: number;
  /**
   * The API's fault code: `ExceptionFaultCode` of a v1 error (`"10301"`), or the last part of a
   * problem+json `type` (`"precondition-failed"`); undefined when the body had neither.
   */
  readonly code?: string;
  /** The parsed error body (v1 error object, problem+json object, or text). */
  readonly body: unknown;
  /** `x-request-id` of the answer: quote it when reporting a problem. */
  readonly requestId?: string;
  /** Seconds to wait before trying again, from `Retry-After` (429, 503). */
  readonly retryAfter?: number;
  readonly method: string;
  readonly url: string;
  /** The Idempotency-Key the write was sent with (every try of it): send it again with that key. */
  idempotencyKey?: string;

  constructor(init: { status: number; message: string; code?: string; body: unknown; requestId?: string; retryAfter?: number; method: string; url: string }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.method = init.method;
    this.url = init.url;
  }
}

/** 401 (token missing, invalid or expired) or 403 (company not granted, scope missing). */
export class ErpAuthError extends ErpApiError {
  override readonly name: string = 'ErpAuthError';
}

/**
 * An update helper gave up: every attempt met a newer version (412), `attempts` times in a row.
 * The last 412 is the `cause`.
 */
export class ErpConflictError extends Error {
  override readonly name: string = 'ErpConflictError';

  constructor(
    readonly resource: string,
    readonly attempts: number,
    options: { cause: ErpApiError },
  ) {
    super(`${resource} was changed by someone else on each of ${attempts} attempts; the change was not applied`, options);
  }
}

/** No answer: connection refused or reset, DNS failure, timeout, or a body cut short. */
export class ErpNetworkError extends Error {
  override readonly name: string = 'ErpNetworkError';
  /** The Idempotency-Key the write was sent with: whether it was applied is unknown; send it again with that key. */
  idempotencyKey?: string;

  constructor(
    message: string,
    readonly method: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A webhook delivery that is not genuine: bad or missing signature, or a timestamp too old or too new. */
export class WebhookVerificationError extends Error {
  override readonly name: string = 'WebhookVerificationError';
}
