import { type Context, ROOT_CONTEXT } from '@opentelemetry/api';
import { parseTraceParent, W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * A trace context in W3C Trace Context form: the `traceparent` and `tracestate` headers. This is
 * what crosses process boundaries: HTTP headers, outbox rows, Kafka headers, delivery rows.
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** W3C allows 32 list members of up to 256 characters; anything longer is not a real tracestate. */
const MAX_TRACESTATE_LENGTH = 8_192;

// Used directly (not through the global propagator) so the helpers behave the same whether or not
// tracing was started; callers decide whether to propagate at all (`isTracingEnabled`).
const w3c = new W3CTraceContextPropagator();

/** The carrier of a context's span, or undefined when it has no valid span context. */
export function carrierOf(context: Context): TraceCarrier | undefined {
  const headers: Record<string, string> = {};
  w3c.inject(context, headers, { set: (carrier, key, value) => (carrier[key] = value) });
  return headers.traceparent ? { traceparent: headers.traceparent, ...(headers.tracestate ? { tracestate: headers.tracestate } : {}) } : undefined;
}

/**
 * A carrier from untrusted input (headers, a jsonb column, Kafka headers already turned into
 * strings): only a well-formed `traceparent` makes one, and an oversized `tracestate` is dropped.
 */
export function traceCarrierFrom(value: unknown): TraceCarrier | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { traceparent, tracestate } = value as Record<string, unknown>;
  const parent = Array.isArray(traceparent) ? traceparent[0] : traceparent;
  if (typeof parent !== 'string' || parseTraceParent(parent) === null) return undefined;
  const state = Array.isArray(tracestate) ? tracestate.join(',') : tracestate;
  return typeof state === 'string' && state.length > 0 && state.length <= MAX_TRACESTATE_LENGTH
    ? { traceparent: parent.trim(), tracestate: state }
    : { traceparent: parent.trim() };
}

/** The context a carrier describes (a remote parent), on top of `base`; `base` itself when none. */
export function contextFromCarrier(carrier: TraceCarrier | undefined, base: Context = ROOT_CONTEXT): Context {
  if (!carrier) return base;
  return w3c.extract(base, carrier, {
    get: (c, key) => (c as unknown as Record<string, string | undefined>)[key],
    keys: (c) => Object.keys(c),
  });
}
