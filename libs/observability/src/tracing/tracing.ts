import { context, diag, DiagLogLevel, propagation, type Span, type Tracer, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { carrierOf, type TraceCarrier } from './trace-context';
import type { TracesSampler, TracingSettings } from './tracing-settings';

/** Instrumentation scope of every span this code base creates. */
export const TRACER_NAME = '@erp/observability';

/** Span attributes of our own (no semantic convention covers them). */
export const ERP_ATTRIBUTES = {
  companyId: 'erp.company_id',
  requestId: 'erp.request_id',
  eventType: 'erp.event_type',
  subscriptionId: 'erp.webhook.subscription_id',
  deliveryAttempt: 'erp.webhook.attempt',
} as const;

let provider: NodeTracerProvider | undefined;

/**
 * True once `startTracing` ran in this process. Every instrumentation point checks it first, so
 * with tracing off nothing is created, propagated or stored (not even no-op spans).
 */
export function isTracingEnabled(): boolean {
  return provider !== undefined;
}

export interface StartTracingOptions {
  /** Tests: export somewhere else than OTLP/HTTP (e.g. an InMemorySpanExporter). */
  exporter?: SpanExporter;
}

/**
 * Starts the OpenTelemetry SDK: a Node tracer provider (AsyncLocalStorage context, W3C Trace
 * Context propagation), the configured sampler, and a batch processor exporting over OTLP/HTTP
 * (JSON). The batch processor's own variables (OTEL_BSP_SCHEDULE_DELAY, ...) and the exporter's
 * (OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION, certificates) are read by the SDK itself.
 * The SDK is loaded here, not at import: a service with tracing off never loads it.
 */
export async function startTracing(settings: TracingSettings, options: StartTracingOptions = {}): Promise<void> {
  if (provider) throw new Error('tracing already started');
  const [{ NodeTracerProvider }, base, { OTLPTraceExporter }, { resourceFromAttributes, defaultResource }, { W3CTraceContextPropagator }, { ATTR_SERVICE_NAME }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/core'),
      import('@opentelemetry/semantic-conventions'),
    ]);
  const exporter = options.exporter ?? new OTLPTraceExporter({ url: settings.tracesUrl });
  const sampler = samplerOf(base, settings.sampler, settings.samplerRatio);
  const created = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName })),
    sampler,
    spanProcessors: [new base.BatchSpanProcessor(exporter)],
  });
  created.register({ propagator: new W3CTraceContextPropagator() });
  provider = created;
}

type SdkBase = typeof import('@opentelemetry/sdk-trace-base');

function samplerOf(base: SdkBase, name: TracesSampler, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new base.AlwaysOnSampler();
    case 'always_off':
      return new base.AlwaysOffSampler();
    case 'traceidratio':
      return new base.TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new base.ParentBasedSampler({ root: new base.AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new base.ParentBasedSampler({ root: new base.TraceIdRatioBasedSampler(ratio) });
    case 'parentbased_always_on':
      return new base.ParentBasedSampler({ root: new base.AlwaysOnSampler() });
  }
}

/**
 * The SDK reports its own problems (a collector that refuses or does not answer, dropped spans)
 * through `diag`, silent by default: send warnings and errors to the service's log instead.
 */
export function logTracingProblems(logger: Logger): void {
  const log = (level: 'warn' | 'error') => (message: string, ...args: unknown[]) =>
    logger[level]({ component: 'opentelemetry', details: args.length > 0 ? args.map(String) : undefined }, message);
  diag.setLogger(
    { error: log('error'), warn: log('warn'), info: () => undefined, debug: () => undefined, verbose: () => undefined },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
}

/** Exports what is buffered now (tests; shutdown does it too). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

/**
 * Exports the spans still buffered and unregisters the SDK, within `timeoutMs` (a collector that
 * does not answer must not hold up the exit). Called by `runService` after the app has drained.
 */
export async function shutdownTracing(timeoutMs = 5_000): Promise<void> {
  const current = provider;
  if (!current) return;
  provider = undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    current.shutdown().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
  trace.disable();
  context.disable();
  propagation.disable();
  diag.disable();
}

/** Our tracer (the global provider's; a no-op one when tracing is off). */
export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/** The carrier of the active span (the request, consumer or delivery being handled), if tracing is on. */
export function activeTraceCarrier(): TraceCarrier | undefined {
  return provider ? carrierOf(context.active()) : undefined;
}

/** The trace and span id of the active span, for log lines (pino `mixin`). */
export function activeTraceIds(): { trace_id: string; span_id: string } | Record<string, never> {
  const span: Span | undefined = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
