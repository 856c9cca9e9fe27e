import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import { carrierOf, contextFromCarrier, ERP_ATTRIBUTES, isTracingEnabled, traceCarrierFrom, tracer } from '@erp/observability';

export interface DeliverySpanInput {
  /** The delivery row's stored trace context (jsonb, may be null or malformed). */
  traceContext: unknown;
  url: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  companyId: string;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface DeliverySpan {
  /** `traceparent` (and `tracestate`) to send with the attempt: the receiver can continue the trace. */
  headers: Record<string, string>;
  end(result: { status?: number; error?: string }): void;
}

/**
 * One attempt as a CLIENT span, a child of the context stored with the delivery (the consumer
 * span of the event); a new trace when none was stored. Undefined when tracing is off: then no
 * header is added. The URL is reduced to scheme, host and port: a path or query may hold a
 * receiver's token.
 */
export function startDeliverySpan(input: DeliverySpanInput): DeliverySpan | undefined {
  if (!isTracingEnabled()) return undefined;
  const parent = contextFromCarrier(traceCarrierFrom(input.traceContext));
  const target = new URL(input.url);
  const span = tracer().startSpan(
    'POST',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: 'POST',
        [ATTR_URL_SCHEME]: target.protocol.replace(':', ''),
        [ATTR_SERVER_ADDRESS]: target.hostname,
        [ATTR_SERVER_PORT]: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
        [ERP_ATTRIBUTES.subscriptionId]: input.subscriptionId,
        [ERP_ATTRIBUTES.deliveryAttempt]: input.attempt,
        [ERP_ATTRIBUTES.eventType]: input.eventType,
        [ERP_ATTRIBUTES.companyId]: input.companyId,
        'messaging.message.id': input.eventId,
      },
    },
    parent,
  );
  const carrier = carrierOf(trace.setSpan(ROOT_CONTEXT, span));
  return {
    headers: carrier ? { ...carrier } : {},
    end: ({ status, error }) => {
      if (status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      // Client spans: any answer of 400 or above, or no answer, is an error (semantic conventions).
      if (error !== undefined || status === undefined || status >= 400) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error ?? (status === undefined ? 'no answer' : `HTTP ${status}`) });
      }
      span.end();
    },
  };
}
