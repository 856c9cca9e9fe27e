import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import type { TestAuth } from '../auth/test-auth';

/** One write of a family, as a client sends it. */
export interface KeyedWriteRequest {
  method: 'POST' | 'PATCH';
  path: string;
  /** A JSON body (sent as text), or a multipart form (an upload). */
  body: unknown;
  headers?: Record<string, string>;
}

/** What the rules need of a service's suite. */
export interface IdempotentWriteFamily {
  /** The service's base URL (its test app's). */
  url(): string;
  auth(): TestAuth;
  /** Its database as the owner, to count what the writes made. */
  sql(): Client;
  company: string;
  /** The route pattern of the write, as its key is scoped: e.g. `POST /v1/customer`. */
  operation: string;
  /**
   * A write for `company` (what it needs, such as an order to PATCH, made here, before the rules
   * count the effects), made afresh for each test (a PATCH names the current ETag in If-Match);
   * `other` a different request to the same route (another body). Sent again as it is for a retry.
   */
  request(variant: 'first' | 'other', company: string): KeyedWriteRequest | Promise<KeyedWriteRequest>;
  /** Rows the write makes, counted in the database for the company (records, outbox events). */
  effects(company: string): Promise<Record<string, number | string>>;
  /** A company besides `company` the caller may write for, with what the write needs arranged. */
  otherCompany: string;
  /**
   * An upload: its body is known only once streamed, so a retry is matched to its stored answer in
   * its write transaction; a 4xx found before the file was read is given afresh (the same answer,
   * not marked a replay), as nothing identifies the body it was about.
   */
  streamedBody?: boolean;
  /** A request to the route that answers a 4xx (default: the write with an unknown body field). */
  invalidRequest?(company: string): KeyedWriteRequest | Promise<KeyedWriteRequest>;
}

/**
 * The Idempotency-Key rules every keyed write of every family keeps (issue 49;
 * docs/api-conventions.md "Safe retries"), as one describe a service's integration suite calls with
 * its write. Each test uses keys of its own, so they run in any order.
 */
export function describeIdempotentWriteRules(title: string, family: IdempotentWriteFamily): void {
  const send = async (request: KeyedWriteRequest, key: string | undefined, as: { company?: string; subject?: string } = {}) => {
    const company = as.company ?? family.company;
    const headers: Record<string, string> = {
      ...(await family.auth().headers({ company, companies: [family.company, family.otherCompany], subject: as.subject })),
      ...request.headers,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    };
    const form = request.body instanceof FormData;
    if (!form) headers['content-type'] = 'application/json';
    const response = await fetch(`${family.url()}${request.path}`, {
      method: request.method,
      headers,
      body: form ? (request.body as FormData) : JSON.stringify(request.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      etag: response.headers.get('etag'),
      location: response.headers.get('location'),
      replayed: response.headers.get('idempotent-replayed'),
      retryAfter: response.headers.get('retry-after'),
    };
  };
  const write = (variant: 'first' | 'other', company = family.company) => Promise.resolve(family.request(variant, company));
  const bodyOf = (text: string): unknown => (text === '' ? '' : JSON.parse(text));

  describe(`${title}: Idempotency-Key`, () => {
    it('gives the first answer again for the same key and request (status, body, ETag, Location, marked a replay), with one effect', async () => {
      const key = randomUUID();
      const before = await family.effects(family.company);
      const request = await write('first');
      const first = await send(request, key);
      expect(first.status).toBeLessThan(300);
      const effects = await family.effects(family.company);
      const again = await send(request, key);
      expect({ ...again, replayed: undefined }).toEqual({ ...first, replayed: undefined });
      expect([first.replayed, again.replayed]).toEqual([null, 'true']);
      expect(await family.effects(family.company)).toEqual(effects);
      expect(effects).not.toEqual(before);
    });

    it('answers 422 naming the key for the same key with another request, and changes nothing', async () => {
      const key = `reused-${randomUUID()}`;
      await send(await write('first'), key);
      const otherRequest = await write('other');
      const effects = await family.effects(family.company);
      const other = await send(otherRequest, key);
      expect(other.status).toBe(422);
      expect(other.text).toContain(key);
      expect(await family.effects(family.company)).toEqual(effects);
    });

    it('answers 409 with Retry-After while a request holding the key is still running, and changes nothing', async () => {
      const key = randomUUID();
      const request = await write('first');
      const sql = family.sql();
      const caller = 'dev-user';
      const scope = [family.company, caller, family.operation, key].join('\u001f');
      // What a running first request holds (libs/idempotency claimKey): the key's advisory lock.
      await sql.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [scope]);
      try {
        const effects = await family.effects(family.company);
        const second = await send(request, key);
        expect([second.status, second.retryAfter]).toEqual([409, expect.stringMatching(/^\d+$/)]);
        expect(await family.effects(family.company)).toEqual(effects);
      } finally {
        await sql.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [scope]);
      }
      // Once it is free, the key does its work: the 409 was not stored.
      expect((await send(request, key)).status).toBeLessThan(300);
    });

    it('keeps one key of two companies, or of two callers, apart: each is a request of its own', async () => {
      const key = randomUUID();
      const request = await write('first');
      const first = await send(request, key);
      const otherCaller = await send(await write('first'), key, { subject: `another-caller-${randomUUID()}` });
      const otherRequest = await write('first', family.otherCompany);
      const otherBefore = await family.effects(family.otherCompany);
      const otherCompany = await send(otherRequest, key, { company: family.otherCompany });
      for (const answer of [first, otherCaller, otherCompany]) expect([answer.status < 300, answer.replayed]).toEqual([true, null]);
      // The other company's request did its own work, in its own company.
      expect(await family.effects(family.otherCompany)).not.toEqual(otherBefore);
      // And each scope keeps its own: the first caller's retry is still its own first answer.
      const again = await send(request, key);
      expect([again.replayed, again.text, again.etag]).toEqual(['true', first.text, first.etag]);
    });

    it('gives a 4xx answer again as it was first given', async () => {
      const key = randomUUID();
      const request = await write('first');
      const invalid: KeyedWriteRequest = family.invalidRequest
        ? await family.invalidRequest(family.company)
        : { ...request, body: request.body instanceof FormData ? new FormData() : { unknownField: true } };
      const sendInvalid = async () => {
        const answer = await send(invalid, key);
        return { status: answer.status, body: bodyOf(answer.text), replayed: answer.replayed };
      };
      const first = await sendInvalid();
      expect([first.status >= 400, first.status < 500]).toEqual([true, true]);
      const again = await sendInvalid();
      expect([again.status, again.replayed]).toEqual([first.status, family.streamedBody ? null : 'true']);
      // A stored answer is the same bytes; one given afresh the same but for its own message id.
      const withoutIds = (body: unknown) => ({ ...(body as object), ExceptionMessageID: undefined, instance: undefined });
      expect(family.streamedBody ? withoutIds(again.body) : again.body).toEqual(family.streamedBody ? withoutIds(first.body) : first.body);
    });

    it('refuses a key over 255 characters or outside visible ASCII with a 400, changing nothing', async () => {
      const request = await write('first');
      const effects = await family.effects(family.company);
      for (const key of ['k'.repeat(256), 'with\ttab', 'ünïcode']) {
        const answer = await send(request, key).catch((error: unknown) => ({ status: 'refused by fetch', text: String(error) }));
        // fetch itself refuses a header outside Latin-1; the server refuses the rest.
        if (answer.status !== 'refused by fetch') expect([key, answer.status]).toEqual([key, 400]);
      }
      expect(await family.effects(family.company)).toEqual(effects);
    });
  });
}
