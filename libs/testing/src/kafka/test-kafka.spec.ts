import { testKafkaBrokers, testTopicPrefix, usingExternalKafka } from './test-kafka';

describe('test Kafka helpers', () => {
  const saved = { brokers: process.env['TEST_KAFKA_BROKERS'], external: process.env['TEST_KAFKA_EXTERNAL'] };
  afterEach(() => {
    restore('TEST_KAFKA_BROKERS', saved.brokers);
    restore('TEST_KAFKA_EXTERNAL', saved.external);
  });

  it('reads the run’s brokers from TEST_KAFKA_BROKERS', () => {
    process.env['TEST_KAFKA_BROKERS'] = 'a:9092, b:9093';
    expect(testKafkaBrokers()).toEqual(['a:9092', 'b:9093']);
  });

  it('explains how to run when the global setup did not set them', () => {
    delete process.env['TEST_KAFKA_BROKERS'];
    expect(() => testKafkaBrokers()).toThrow(/global setup/);
  });

  it('knows whether the run uses a real cluster', () => {
    process.env['TEST_KAFKA_EXTERNAL'] = '1';
    expect(usingExternalKafka()).toBe(true);
    process.env['TEST_KAFKA_EXTERNAL'] = '0';
    expect(usingExternalKafka()).toBe(false);
  });

  it('gives each caller its own topic prefix', () => {
    const first = testTopicPrefix('Outbox Relay');
    expect(first).toMatch(/^test\.outbox-relay\.[0-9a-f]{8}\.$/);
    expect(testTopicPrefix('Outbox Relay')).not.toBe(first);
  });
});

describe('the Kafka fixture', () => {
  it('exported a broker list the workers can use', () => {
    expect(testKafkaBrokers().length).toBeGreaterThan(0);
    for (const broker of testKafkaBrokers()) expect(broker).toMatch(/^[^:]+:\d+$/);
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
