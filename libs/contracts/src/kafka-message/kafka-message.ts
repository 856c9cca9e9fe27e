/**
 * How an event travels on Kafka, beside its JSON value (the envelope): the message key and the
 * headers. `@erp/messaging` writes them from here, and the AsyncAPI document describes them from
 * here, so the two cannot say different things.
 */

/** The Kafka message key of an event, `<companyId>:<subject>`: one key per aggregate keeps its events in order. */
export function eventMessageKey(event: { companyId: string; subject: string }): string {
  return `${event.companyId}:${event.subject}`;
}

/** What the key looks like, for the AsyncAPI document: company id, a colon, the envelope's subject. */
export const EVENT_MESSAGE_KEY_PATTERN = '^[^:]+:.+$';

/** One Kafka header the outbox relay sets on every event (or, for the trace headers, on traced ones). */
export interface EventHeader {
  name: string;
  description: string;
  /** Sent on every event; the trace headers only when the change was traced. */
  always: boolean;
  pattern?: string;
}

/** The Kafka headers of every event message, in the order the relay writes them. */
export const EVENT_HEADERS = {
  eventId: { name: 'event-id', always: true, description: "The envelope's `id` (a uuid): consumers deduplicate on it." },
  eventType: { name: 'event-type', always: true, description: "The envelope's `type`, so a consumer can skip a type without parsing the value." },
  contentType: { name: 'content-type', always: true, description: 'Always `application/json`: the value is the envelope as JSON text (UTF-8).' },
  traceparent: {
    name: 'traceparent',
    always: false,
    description: 'W3C trace context of the change, when it was traced (OpenTelemetry on in the producer); consumers continue the trace.',
    pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$',
  },
  tracestate: { name: 'tracestate', always: false, description: 'W3C trace state that came with `traceparent`, when there was one.' },
} as const satisfies Record<string, EventHeader>;

/** The content type of every event value. */
export const EVENT_CONTENT_TYPE = 'application/json';
