import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { connectionConfigOf, driverSettingsOf, type PostgresDataSourceOptions } from '@erp/database';
import { ReadinessChecks } from '@erp/observability';
import { reportOutboxBacklog } from '../metrics/messaging-metrics';
import { type OutboxBacklog, outboxBacklog } from '../outbox/outbox-backlog';
import { OutboxRelay, type OutboxRelayStatus } from '../outbox/outbox-relay';
import { MESSAGING_OPTIONS, type MessagingModuleOptions } from './messaging-options';

/**
 * The outbox relay inside a Nest service: started once the application has bootstrapped, stopped
 * at `onApplicationShutdown`, i.e. after the HTTP server has stopped taking requests and the
 * in-flight ones have finished, so the flush sees every event they added. It uses its own
 * database connection, so it does not depend on the order in which Nest closes the DataSource.
 */
@Injectable()
export class OutboxRelayService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay?: OutboxRelay;
  private stopReportingBacklog?: () => void;

  constructor(
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingModuleOptions,
    kafka: Kafka,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly readiness?: ReadinessChecks,
  ) {
    if (options.relay === false) return;
    this.relay = new OutboxRelay({
      ...options.relay,
      kafka,
      database: connectionConfigOf(dataSource, `${applicationNameOf(dataSource)}-outbox-relay`, 'pooled'),
      listenSession: connectionConfigOf(dataSource, `${applicationNameOf(dataSource)}-outbox-relay`, 'session'),
      roles: rolesOf(dataSource),
      logger: new Logger('OutboxRelay'),
    });
  }

  onModuleInit(): void {
    if (this.relay && this.options.readinessCheck !== false) this.readiness?.add(() => this.readinessCheck());
  }

  onApplicationBootstrap(): void {
    if (!this.relay) return;
    this.relay.start();
    this.stopReportingBacklog = reportOutboxBacklog(this.options.clientId, () => this.backlog());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopReportingBacklog?.();
    await this.relay?.stop();
  }

  status(): OutboxRelayStatus | undefined {
    return this.relay?.status();
  }

  /**
   * Pending outbox rows (for metrics), read through the service's pool rather than the relay's own
   * session, which is down exactly when the backlog matters (the relay reconnecting after an outage).
   */
  backlog(): Promise<OutboxBacklog> {
    return outboxBacklog(this.dataSource);
  }

  /**
   * `kafka`: down until the producer has connected once (a pod with a wrong broker list never
   * becomes ready, so a bad rollout stops); up while connected; degraded (still HTTP 200) when
   * Kafka is lost later. Writes keep working then, because events wait in the outbox; taking
   * every pod out of service during a Kafka outage would turn it into an API outage.
   */
  readinessCheck(): HealthIndicatorResult<'kafka'> {
    const state = this.relay?.status();
    if (!state) return { kafka: { status: 'up', relay: 'disabled' } };
    const details = { active: state.active, published: state.published, lastError: state.lastError };
    if (state.kafkaConnected) return { kafka: { status: 'up', ...details } };
    if (state.kafkaEverConnected) return { kafka: { status: 'degraded', ...details } };
    return { kafka: { status: 'down', message: 'not connected to Kafka yet', ...details } };
  }
}

/** The roles the DataSource's transactions run as, for the relay's own connection. */
function rolesOf(dataSource: DataSource): { tenantRole?: string; serviceRole?: string } {
  const settings = driverSettingsOf(dataSource);
  return settings?.tenantRole ? { tenantRole: settings.tenantRole, serviceRole: settings.serviceRole } : {};
}

function applicationNameOf(dataSource: DataSource): string {
  return (dataSource.options as PostgresDataSourceOptions).applicationName ?? 'service';
}
