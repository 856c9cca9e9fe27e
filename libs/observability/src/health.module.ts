import { Controller, type DynamicModule, Get, Injectable, Module, Optional, Res } from '@nestjs/common';
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

/**
 * Whether this replica is shutting down. `runService` begins the drain on SIGTERM (libs/bootstrap
 * `closeGracefully`): from then on readiness answers 503 at once, without asking any dependency,
 * so that load balancers (a Kubernetes Service's endpoints, the gateway's replica list) stop
 * sending new requests while the replica still answers the ones that reach it. It never ends: a
 * draining process exits.
 */
@Injectable()
export class DrainState {
  private began = false;

  begin(): void {
    this.began = true;
  }

  get draining(): boolean {
    return this.began;
  }
}

/**
 * What readiness answers, with 503, while the replica drains: terminus's own word for it. Not an
 * exception: a draining replica's readiness is expected to fail, and is probed twice a second by
 * the gateway (replica lists) and by the kubelet; an exception would log an error each time.
 */
export const DRAINING_READINESS = {
  status: 'shutting_down',
  info: {},
  error: { shutdown: { status: 'down', message: 'draining: this replica is shutting down' } },
} as const;

/** The part of the framework's reply the readiness answer needs (Fastify's, passed through). */
interface StatusReply {
  status(code: number): unknown;
}

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessChecks,
    private readonly typeOrm: TypeOrmHealthIndicator,
    private readonly drain: DrainState,
    @Optional() private readonly dataSource?: DataSource,
  ) {}

  /** Liveness: the process answers. Never checks dependencies, so an outage does not restart pods. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: every dependency this service needs to serve traffic answers in time. A draining
   * replica is not ready whatever its dependencies say, and answers without asking them.
   */
  @Get('ready')
  @HealthCheck()
  ready(@Res({ passthrough: true }) reply?: StatusReply) {
    if (this.drain.draining) {
      reply?.status(503);
      return DRAINING_READINESS;
    }
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
      providers: [ReadinessChecks, DrainState],
      exports: [ReadinessChecks, DrainState],
    };
  }
}
