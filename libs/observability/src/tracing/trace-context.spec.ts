import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { carrierOf, contextFromCarrier, traceCarrierFrom } from './trace-context';
import { tracingSettingsFrom } from './tracing-settings';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

describe('traceCarrierFrom (untrusted input: headers, stored jsonb)', () => {
  it('keeps a well-formed traceparent and its tracestate', () => {
    expect(traceCarrierFrom({ traceparent: TRACEPARENT, tracestate: 'vendor=abc' })).toEqual({
      traceparent: TRACEPARENT,
      tracestate: 'vendor=abc',
    });
    expect(traceCarrierFrom({ traceparent: TRACEPARENT })).toEqual({ traceparent: TRACEPARENT });
  });

  it('takes the first of repeated traceparent headers and joins repeated tracestate headers', () => {
    expect(traceCarrierFrom({ traceparent: [TRACEPARENT, 'x'], tracestate: ['a=1', 'b=2'] })).toEqual({
      traceparent: TRACEPARENT,
      tracestate: 'a=1,b=2',
    });
  });

  it.each([
    ['no object', 'text'],
    ['null', null],
    ['no traceparent', { tracestate: 'a=1' }],
    ['not a string', { traceparent: 42 }],
    ['malformed', { traceparent: '00-xyz-abc-01' }],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` }],
    ['an all-zero span id', { traceparent: `00-${TRACE_ID}-${'0'.repeat(16)}-01` }],
    ['version ff', { traceparent: `ff-${TRACE_ID}-${SPAN_ID}-01` }],
  ])('refuses %s', (_what, value) => {
    expect(traceCarrierFrom(value)).toBeUndefined();
  });

  it('drops an oversized tracestate but keeps the parent', () => {
    expect(traceCarrierFrom({ traceparent: TRACEPARENT, tracestate: 'a='.padEnd(9_000, 'x') })).toEqual({ traceparent: TRACEPARENT });
  });
});

describe('contextFromCarrier / carrierOf', () => {
  it('round-trips a carrier through a context as a remote parent', () => {
    const context = contextFromCarrier({ traceparent: TRACEPARENT, tracestate: 'vendor=abc' });
    expect(trace.getSpanContext(context)).toMatchObject({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    expect(carrierOf(context)).toEqual({ traceparent: TRACEPARENT, tracestate: 'vendor=abc' });
  });

  it('keeps the not-sampled flag', () => {
    const unsampled = `00-${TRACE_ID}-${SPAN_ID}-00`;
    expect(carrierOf(contextFromCarrier({ traceparent: unsampled }))).toEqual({ traceparent: unsampled });
  });

  it('gives the base context back when there is no carrier, and no carrier for a context without a span', () => {
    expect(contextFromCarrier(undefined)).toBe(ROOT_CONTEXT);
    expect(carrierOf(ROOT_CONTEXT)).toBeUndefined();
  });
});

describe('tracingSettingsFrom', () => {
  it('is off without an endpoint', () => {
    expect(tracingSettingsFrom({}, 'customers-v1')).toBeUndefined();
    expect(tracingSettingsFrom({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }, 'customers-v1')).toBeUndefined();
  });

  it('appends v1/traces to the base endpoint (with or without a trailing slash)', () => {
    expect(tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'a')?.tracesUrl).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/otlp/' }, 'a')?.tracesUrl).toBe(
      'http://collector:4318/otlp/v1/traces',
    );
  });

  it('uses the traces endpoint as given, over the base one', () => {
    expect(
      tracingSettingsFrom(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/custom/traces' },
        'a',
      )?.tracesUrl,
    ).toBe('https://b/custom/traces');
  });

  it('defaults the service name to the app and the sampler to parentbased_always_on with ratio 1', () => {
    expect(tracingSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, 'sales-orders-v3')).toEqual({
      serviceName: 'sales-orders-v3',
      tracesUrl: 'http://c:4318/v1/traces',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
    expect(
      tracingSettingsFrom(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SERVICE_NAME: 'orders', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: 0.25 },
        'sales-orders-v3',
      ),
    ).toMatchObject({ serviceName: 'orders', sampler: 'parentbased_traceidratio', samplerRatio: 0.25 });
  });
});
