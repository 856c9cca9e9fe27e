import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS } from '@opentelemetry/semantic-conventions';
import { carrierOf, isTracingEnabled, tracer } from '@erp/observability';

export interface InternalCallSpan {
  /** `traceparent` for the call: the called service's request span continues the trace. */
  headers: Record<string, string>;
  end(status?: number, error?: unknown): void;
}

/** With tracing on, one CLIENT span per attempt, a child of the request that needed the answer. */
export function startInternalCallSpan(method: string, baseUrl: string, target: string): InternalCallSpan | undefined {
  if (!isTracingEnabled()) return undefined;
  const span = tracer().startSpan(
    method,
    { kind: SpanKind.CLIENT, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_SERVER_ADDRESS]: new URL(baseUrl).hostname, 'peer.service': target } },
    context.active(),
  );
  const carrier = carrierOf(trace.setSpan(context.active(), span));
  return {
    headers: carrier ? { ...carrier } : {},
    end: (status, error) => {
      if (status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (error !== undefined || (status !== undefined && status >= 500)) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
      span.end();
    },
  };
}
