import { Controller, type DynamicModule, Get, Injectable, Module, Optional } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  type HealthIndicatorFunction,
  TerminusModule,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { Public } from '@erp/auth';

/**
 * Readiness checks other modules add at start-up (e.g. the Kafka producer). Each check has its
 * own timeout inside; a slow dependency makes readiness red instead of hanging the probe.
 */
@Injectable()
export class ReadinessChecks {
  private readonly checks: HealthIndicatorFunction[] = [];

  add(check: HealthIndicatorFunction): void {
    this.checks.push(check);
  }

  all(): HealthIndicatorFunction[] {
    return [...this.checks];
  }
}

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessChecks,
    private readonly typeOrm: TypeOrmHealthIndicator,
    @Optional() private readonly dataSource?: DataSource,
  ) {}

  /** Liveness: the process answers. Never checks dependencies, so an outage does not restart pods. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: every dependency this service needs to serve traffic answers in time. */
  @Get('ready')
  @HealthCheck()
  ready() {
    const checks: HealthIndicatorFunction[] = [...this.readiness.all()];
    if (this.dataSource) checks.unshift(() => this.typeOrm.pingCheck('database').withTimeout(1500));
    return this.health.check(checks);
  }
}

@Module({})
export class HealthModule {
  static forRoot(): DynamicModule {
    return {
      module: HealthModule,
      global: true,
      imports: [TerminusModule.forRoot({ errorLogStyle: 'json', logger: false })],
      controllers: [HealthController],
      providers: [ReadinessChecks],
      exports: [ReadinessChecks],
    };
  }
}
