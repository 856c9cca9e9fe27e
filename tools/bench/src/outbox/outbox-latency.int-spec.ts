import { testDatabaseName, testDatabaseServerUrl, testKafkaBrokers, usingExternalKafka } from '@erp/testing';
import { markdownLine, runOutboxLatencyBench } from './outbox-latency.bench';

/** `npm run bench:outbox` at tiny size: the measurement must not rot between full runs. */
describe('bench:outbox', () => {
  it('measures commit-to-consumer latency and events/s through Kafka', async () => {
    const result = await runOutboxLatencyBench({
      databaseServerUrl: testDatabaseServerUrl(),
      databaseName: testDatabaseName('bench_outbox'),
      brokers: testKafkaBrokers(),
      brokerKind: usingExternalKafka() ? 'kafka' : 'dev-broker',
      latencyEvents: 100,
      rate: 200,
      throughputEvents: 300,
    });
    expect(result.latency.count).toBe(100);
    // Commit, relay, Kafka and consumer take time: a zero would mean nothing was timed.
    expect(result.latency.p50Ms).toBeGreaterThan(0);
    expect(result.latency.p99Ms).toBeGreaterThanOrEqual(result.latency.p50Ms);
    // How fast is the bench's figure, not this test's: that the relay is woken by NOTIFY and not by
    // its fallback poll is libs/messaging's outbox-relay.int-spec, without a clock.
    expect(result.throughput.eventsPerSecond).toBeGreaterThan(0);
    expect(markdownLine(result)).toMatch(/^\| outbox commit → consumer \(.+\) \| p50 [\d.]+ ms \| p99 [\d.]+ ms \|/);
  });
});
