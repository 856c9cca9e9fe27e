import { createHmac, randomBytes } from 'node:crypto';

/** Secrets are `whsec_` + Base64 of 32 random bytes (the Standard Webhooks format). */
export const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a secret: the Base64-decoded part after `whsec_`. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export interface SignedHeadersInput {
  /** The message id (`webhook-id`), the same on every attempt. */
  messageId: string;
  /** The attempt time. */
  timestamp: Date;
  /** The exact body bytes sent. */
  body: string;
  /** Signing secrets, current first; during a rotation overlap the previous one too. */
  secrets: string[];
  subscriptionId: string;
  companyId: string;
}

/**
 * The headers of one attempt. Standard Webhooks: `webhook-signature` is `v1,<sig>` per secret,
 * space-separated, where sig = Base64 HMAC-SHA256 of `id.timestamp.body`. Compatibility headers:
 * `x-vwd-signature-v1` = Base64 HMAC-SHA256 of the raw body with the current secret's key.
 */
export function signedHeaders(input: SignedHeadersInput): Record<string, string> {
  const seconds = Math.floor(input.timestamp.getTime() / 1000);
  const signed = `${input.messageId}.${seconds}.${input.body}`;
  const signatures = input.secrets.map(
    (secret) => `v1,${createHmac('sha256', secretKey(secret)).update(signed).digest('base64')}`,
  );
  return {
    'content-type': 'application/json',
    'webhook-id': input.messageId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': signatures.join(' '),
    'x-vwd-signature-v1': createHmac('sha256', secretKey(input.secrets[0])).update(input.body).digest('base64'),
    'x-vwd-event-id': input.messageId,
    'x-vwd-subscription-id': input.subscriptionId,
    'x-vwd-tenant-id': input.companyId,
    'x-vwd-notification-timestamp': input.timestamp.toISOString(),
  };
}
