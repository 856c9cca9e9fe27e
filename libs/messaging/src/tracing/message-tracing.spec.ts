import { carrierFromKafkaHeaders, kafkaTraceHeaders } from './message-tracing';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context in Kafka headers', () => {
  it('writes the carrier as the W3C header names, and nothing without one', () => {
    expect(kafkaTraceHeaders({ traceparent: TRACEPARENT, tracestate: 'v=1' })).toEqual({ traceparent: TRACEPARENT, tracestate: 'v=1' });
    expect(kafkaTraceHeaders(undefined)).toEqual({});
  });

  it('reads it back from Buffers, as kafkajs delivers header values', () => {
    expect(
      carrierFromKafkaHeaders({ traceparent: Buffer.from(TRACEPARENT), tracestate: Buffer.from('v=1'), 'event-id': Buffer.from('x') }),
    ).toEqual({ traceparent: TRACEPARENT, tracestate: 'v=1' });
  });

  it('takes the first value of a header sent twice', () => {
    expect(carrierFromKafkaHeaders({ traceparent: [Buffer.from(TRACEPARENT), Buffer.from('junk')] })).toEqual({ traceparent: TRACEPARENT });
  });

  it('ignores missing or malformed trace headers', () => {
    expect(carrierFromKafkaHeaders(undefined)).toBeUndefined();
    expect(carrierFromKafkaHeaders({})).toBeUndefined();
    expect(carrierFromKafkaHeaders({ traceparent: Buffer.from('not-a-traceparent') })).toBeUndefined();
    expect(carrierFromKafkaHeaders({ traceparent: undefined, tracestate: Buffer.from('v=1') })).toBeUndefined();
  });
});
