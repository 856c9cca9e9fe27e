import { Webhook, WebhookVerificationError as StandardWebhooksError } from 'standardwebhooks';
import { WebhookVerificationError } from '../errors';

/** A webhook delivery body, as the webhook publisher sends it. */
export interface WebhookEvent<D = Record<string, unknown>> {
  /** The event id; also `webhook-id`, the same on every retry: deduplicate on it. */
  id: string;
  type: string;
  publisher: string;
  companyId: string;
  /** When the change happened (ISO 8601). */
  timestamp: string;
  data: D;
}

export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookInput {
  /** The raw request body exactly as received (not re-serialised JSON). */
  payload: string | Buffer;
  headers: WebhookHeaders;
  /** The subscription's `whsec_...` secret; during a rotation, both the old and the new. */
  secret: string | readonly string[];
}

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Verifies a delivery by the Standard Webhooks scheme the publisher signs with (HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, timestamp within 5 minutes of now, constant-time
 * comparison; the `standardwebhooks` library does the work) and answers the parsed event.
 * Throws WebhookVerificationError for a missing header, a bad signature or a stale timestamp.
 */
export function verifyWebhook<D = Record<string, unknown>>(input: VerifyWebhookInput): WebhookEvent<D> {
  const headers: Record<string, string> = {};
  for (const name of SIGNED_HEADERS) {
    const value = headerValue(input.headers, name);
    if (value === undefined) throw new WebhookVerificationError(`missing ${name} header`);
    headers[name] = value;
  }
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs a secret');
  let failure: Error | undefined;
  for (const secret of secrets) {
    try {
      return new Webhook(secret).verify(input.payload, headers) as WebhookEvent<D>;
    } catch (error) {
      if (!(error instanceof StandardWebhooksError)) throw error;
      failure = error;
    }
  }
  throw new WebhookVerificationError(failure?.message ?? 'no matching signature');
}

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}
