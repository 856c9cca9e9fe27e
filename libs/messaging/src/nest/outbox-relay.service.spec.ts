import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { OutboxRelay, type OutboxRelayStatus } from '../outbox/outbox-relay';
import { OutboxRelayService } from './outbox-relay.service';

const dataSource = { options: { type: 'postgres', url: 'postgres://u:p@db:5432/customers', applicationName: 'customers-v1' } };

function serviceWith(status: Partial<OutboxRelayStatus>): OutboxRelayService {
  jest.spyOn(OutboxRelay.prototype, 'status').mockReturnValue({
    active: true,
    kafkaConnected: false,
    kafkaEverConnected: false,
    published: 0,
    failures: 0,
    ...status,
  });
  return new OutboxRelayService({ brokers: ['k:9092'], clientId: 'customers-v1' }, {} as Kafka, dataSource as unknown as DataSource);
}

describe('OutboxRelayService readiness', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is down until the producer has connected once, so a pod with a wrong broker list never gets traffic', () => {
    expect(serviceWith({}).readinessCheck().kafka.status).toBe('down');
  });

  it('is up while connected', () => {
    expect(serviceWith({ kafkaConnected: true, kafkaEverConnected: true }).readinessCheck().kafka.status).toBe('up');
  });

  it('is degraded, not down, when Kafka is lost later: writes go on and events wait in the outbox', () => {
    const check = serviceWith({ kafkaEverConnected: true, lastError: 'Connection refused' }).readinessCheck();
    expect(check.kafka).toMatchObject({ status: 'degraded', lastError: 'Connection refused' });
  });

  it('is up with relay "disabled" in a service that publishes nothing', () => {
    const service = new OutboxRelayService(
      { brokers: ['k:9092'], clientId: 'x', relay: false },
      {} as Kafka,
      dataSource as unknown as DataSource,
    );
    expect(service.readinessCheck()).toEqual({ kafka: { status: 'up', relay: 'disabled' } });
  });
});
