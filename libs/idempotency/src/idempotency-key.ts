import { createHash } from 'node:crypto';

/** The request header (draft-ietf-httpapi-idempotency-key-header-07). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on an answer that is a stored one given again. */
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';
export const MAX_KEY_LENGTH = 255;

/** Visible ASCII (0x21-0x7E) and spaces between them: what a header value may carry without doubt. */
const KEY = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Why `value` (the header's value) is no Idempotency-Key, or undefined when it is one: at most 255
 * characters of visible ASCII. The draft leaves the syntax to the resource; this is what Stripe
 * and the draft's examples take, a UUID among them.
 */
export function keyProblem(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return 'Idempotency-Key must be sent once';
  if (value.length === 0) return 'Idempotency-Key must not be empty';
  if (value.length > MAX_KEY_LENGTH) return `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters`;
  if (!KEY.test(value)) return 'Idempotency-Key must be visible ASCII characters';
  return undefined;
}

/** What makes two requests with one key the same request. */
export interface RequestFacts {
  method: string;
  /** The path and query as sent. */
  url: string;
  /** The headers that change the outcome (If-Match, the body's content type). */
  headers: Record<string, string | undefined>;
  /** The body's bytes, or a digest of a body streamed past (an upload's). */
  body: Buffer | string;
}

/** A digest of the request: the same key with another fingerprint is another request (422). */
export function fingerprintOf(facts: RequestFacts): string {
  const hash = createHash('sha256');
  hash.update(`${facts.method.toUpperCase()} ${facts.url}\n`);
  for (const name of Object.keys(facts.headers).sort()) hash.update(`${name.toLowerCase()}: ${facts.headers[name] ?? ''}\n`);
  hash.update('\n').update(facts.body);
  return hash.digest('base64url');
}
