/** The OTEL_TRACES_SAMPLER values of the OpenTelemetry specification. */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

/** The tracing variables as `ServiceConfig` validated them (all optional). */
export interface TracingVariables {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_SERVICE_NAME?: string;
  OTEL_TRACES_SAMPLER?: string;
  OTEL_TRACES_SAMPLER_ARG?: number;
}

/** What `startTracing` needs; `undefined` from `tracingSettingsFrom` means tracing is off. */
export interface TracingSettings {
  serviceName: string;
  /** Where spans are POSTed (OTLP/HTTP, JSON), e.g. `http://collector:4318/v1/traces`. */
  tracesUrl: string;
  sampler: TracesSampler;
  /** Ratio for the `*traceidratio` samplers, 0..1. */
  samplerRatio: number;
}

/**
 * Tracing is on exactly when an OTLP endpoint is configured. The URL follows the OTLP exporter
 * specification: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as given; OTEL_EXPORTER_OTLP_ENDPOINT
 * is a base to which `v1/traces` is appended. The service name defaults to the app's name, the
 * sampler to `parentbased_always_on` (a caller's sampled flag is respected; new traces are all kept).
 */
export function tracingSettingsFrom(variables: TracingVariables, appName: string): TracingSettings | undefined {
  const tracesUrl = variables.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    ? variables.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    : variables.OTEL_EXPORTER_OTLP_ENDPOINT
      ? `${variables.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`
      : undefined;
  if (!tracesUrl) return undefined;
  return {
    serviceName: variables.OTEL_SERVICE_NAME || appName,
    tracesUrl,
    sampler: (variables.OTEL_TRACES_SAMPLER as TracesSampler | undefined) ?? 'parentbased_always_on',
    samplerRatio: variables.OTEL_TRACES_SAMPLER_ARG ?? 1,
  };
}
