import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { IHeaders } from 'kafkajs';
import {
  carrierOf,
  contextFromCarrier,
  ERP_ATTRIBUTES,
  isTracingEnabled,
  type TraceCarrier,
  traceCarrierFrom,
  tracer,
} from '@erp/observability';

// Messaging attribute names of the OpenTelemetry semantic conventions. They are still
// "development" status there, and the conventions ask to copy such names rather than import them.
const ATTR_MESSAGING_SYSTEM = 'messaging.system';
const ATTR_MESSAGING_OPERATION_TYPE = 'messaging.operation.type';
const ATTR_MESSAGING_OPERATION_NAME = 'messaging.operation.name';
const ATTR_MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
const ATTR_MESSAGING_DESTINATION_PARTITION_ID = 'messaging.destination.partition.id';
const ATTR_MESSAGING_CONSUMER_GROUP_NAME = 'messaging.consumer.group.name';
const ATTR_MESSAGING_MESSAGE_ID = 'messaging.message.id';
const ATTR_MESSAGING_KAFKA_OFFSET = 'messaging.kafka.offset';

/** Kafka headers that carry a message's trace context (the W3C header names). */
export function kafkaTraceHeaders(carrier: TraceCarrier | undefined): Record<string, string> {
  return carrier ? { ...carrier } : {};
}

/**
 * The trace context of a consumed message, from its Kafka headers (values arrive as Buffers, a
 * header sent twice as an array); undefined when there is none or it is malformed.
 */
export function carrierFromKafkaHeaders(headers: IHeaders | undefined): TraceCarrier | undefined {
  if (!headers) return undefined;
  const text = (value: IHeaders[string]): string | undefined => {
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined ? undefined : first.toString();
  };
  return traceCarrierFrom({ traceparent: text(headers.traceparent), tracestate: text(headers.tracestate) });
}

export interface CreateSpanInfo {
  topic: string;
  eventId: string;
  eventType: string;
  companyId: string;
}

/**
 * The outbox's "create" span (PRODUCER): the event is created in the request's transaction and
 * sent later by the relay, so this span stands for the message; its context is stored with the
 * row and travels in the Kafka headers, and consumers continue from it. `work` gets the carrier
 * to store (undefined when tracing is off; then no span is made).
 */
export function traceCreate<T>(info: CreateSpanInfo, work: (carrier: TraceCarrier | undefined) => Promise<T>): Promise<T> {
  // Off: no span, no extra promise; the hot path stays as it was.
  return isTracingEnabled() ? createInSpan(info, work) : work(undefined);
}

async function createInSpan<T>(info: CreateSpanInfo, work: (carrier: TraceCarrier | undefined) => Promise<T>): Promise<T> {
  const span = tracer().startSpan(`create ${info.topic}`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      [ATTR_MESSAGING_SYSTEM]: 'kafka',
      [ATTR_MESSAGING_OPERATION_TYPE]: 'create',
      [ATTR_MESSAGING_OPERATION_NAME]: 'create',
      [ATTR_MESSAGING_DESTINATION_NAME]: info.topic,
      [ATTR_MESSAGING_MESSAGE_ID]: info.eventId,
      [ERP_ATTRIBUTES.eventType]: info.eventType,
      [ERP_ATTRIBUTES.companyId]: info.companyId,
    },
  });
  try {
    return await work(carrierOf(trace.setSpan(context.active(), span)));
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

export interface ProcessSpanInfo {
  topic: string;
  partition: number;
  offset: string;
  groupId: string;
  headers: IHeaders | undefined;
}

/**
 * Runs the handling of one consumed message in a "process" span (CONSUMER), a child of the
 * producer's context from the message headers (a new trace when there is none). The span is the
 * active context while `work` runs, so what the handler records (e.g. webhook deliveries) can
 * carry the trace on. With tracing off, just runs `work`.
 */
export function traceProcess<T>(info: ProcessSpanInfo, work: () => Promise<T>): Promise<T> {
  return isTracingEnabled() ? processInSpan(info, work) : work();
}

async function processInSpan<T>(info: ProcessSpanInfo, work: () => Promise<T>): Promise<T> {
  const parent = contextFromCarrier(carrierFromKafkaHeaders(info.headers));
  const header = (name: string) => info.headers?.[name]?.toString();
  const span = tracer().startSpan(
    `process ${info.topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        [ATTR_MESSAGING_SYSTEM]: 'kafka',
        [ATTR_MESSAGING_OPERATION_TYPE]: 'process',
        [ATTR_MESSAGING_OPERATION_NAME]: 'process',
        [ATTR_MESSAGING_DESTINATION_NAME]: info.topic,
        [ATTR_MESSAGING_DESTINATION_PARTITION_ID]: String(info.partition),
        [ATTR_MESSAGING_CONSUMER_GROUP_NAME]: info.groupId,
        [ATTR_MESSAGING_KAFKA_OFFSET]: Number(info.offset),
        ...(header('event-id') ? { [ATTR_MESSAGING_MESSAGE_ID]: header('event-id') } : {}),
        ...(header('event-type') ? { [ERP_ATTRIBUTES.eventType]: header('event-type') } : {}),
      },
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
