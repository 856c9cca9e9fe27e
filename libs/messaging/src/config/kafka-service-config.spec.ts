import { ConfigError, loadConfig } from '@erp/bootstrap';
import { KafkaServiceConfig, messagingOptionsFrom } from './kafka-service-config';

const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db' };

describe('KafkaServiceConfig', () => {
  it('turns the variables into MessagingModule options, the service name as default client id and source', () => {
    const config = loadConfig(KafkaServiceConfig, { ...base, KAFKA_BROKERS: 'k1:9092, k2:9093' });
    expect(messagingOptionsFrom(config, { clientId: 'customers-v1' })).toEqual({
      brokers: ['k1:9092', 'k2:9093'],
      clientId: 'customers-v1',
      source: 'customers-v1',
      topicPrefix: undefined,
      ssl: false,
      sasl: undefined,
    });
  });

  it('uses KAFKA_CLIENT_ID, the topic prefix, TLS and SASL when set', () => {
    const config = loadConfig(KafkaServiceConfig, {
      ...base,
      KAFKA_BROKERS: 'kafka:9092',
      KAFKA_CLIENT_ID: 'customers-v1-pod-a',
      KAFKA_TOPIC_PREFIX: 'staging.',
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'svc',
      KAFKA_SASL_PASSWORD: 'secret',
    });
    expect(messagingOptionsFrom(config, { clientId: 'customers-v1' })).toMatchObject({
      clientId: 'customers-v1-pod-a',
      source: 'customers-v1',
      topicPrefix: 'staging.',
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'svc', password: 'secret' },
    });
  });

  it('refuses to start without brokers or with a malformed list, naming the variable', () => {
    expect(() => loadConfig(KafkaServiceConfig, base)).toThrow(ConfigError);
    expect(() => loadConfig(KafkaServiceConfig, base)).toThrow(/KAFKA_BROKERS/);
    expect(() => loadConfig(KafkaServiceConfig, { ...base, KAFKA_BROKERS: 'kafka' })).toThrow(/KAFKA_BROKERS/);
  });

  it('requires credentials when a SASL mechanism is set', () => {
    expect(() =>
      loadConfig(KafkaServiceConfig, { ...base, KAFKA_BROKERS: 'kafka:9092', KAFKA_SASL_MECHANISM: 'plain' }),
    ).toThrow(/KAFKA_SASL_USERNAME[\s\S]*KAFKA_SASL_PASSWORD|KAFKA_SASL_PASSWORD[\s\S]*KAFKA_SASL_USERNAME/);
  });
});
