import { Controller, type DynamicModule, Get, Injectable, Logger, Module, Optional, Res, ServiceUnavailableException } from '@nestjs/common';
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

/**
 * One log line when readiness changes (ready, or not ready with the checks that failed), instead of
 * one per probe: during a start or an outage the gateway and the kubelet probe twice a second, and
 * each failed probe used to log an error with a stack (55 of them in one `npm start`).
 */
export class ReadinessLog {
  private last: 'ready' | 'not ready' | undefined;
  private everReady = false;

  constructor(private readonly logger: Pick<Logger, 'log' | 'warn'> = new Logger('Readiness')) {}

  ready(): void {
    if (this.last === 'not ready') this.logger.log(this.everReady ? 'ready again' : 'ready');
    this.last = 'ready';
    this.everReady = true;
  }

  /** At warn when it was ready before (a dependency lost); at info while it starts (not ready yet is expected). */
  notReady(result: unknown): void {
    if (this.last === 'not ready') return;
    const wasReady = this.last === 'ready';
    this.last = 'not ready';
    const failed = Object.keys((result as { error?: Record<string, unknown> } | undefined)?.error ?? {});
    const line = `${wasReady ? 'not ready' : 'not ready yet'}: ${failed.length ? failed.join(', ') : 'a check failed'} (logged once until it changes)`;
    if (wasReady) this.logger.warn(line);
    else this.logger.log(line);
  }
}

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

  private readonly log = new ReadinessLog();

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
  async ready(@Res({ passthrough: true }) reply?: StatusReply) {
    if (this.drain.draining) {
      reply?.status(503);
      return DRAINING_READINESS;
    }
    const checks: HealthIndicatorFunction[] = [...this.readiness.all()];
    if (this.dataSource) checks.unshift(() => this.typeOrm.pingCheck('database').withTimeout(1500));
    try {
      const result = await this.health.check(checks);
      this.log.ready();
      return result;
    } catch (error) {
      // Terminus answers a failed check by throwing a 503 whose body is the result. Not ready is
      // an answer, not a fault: the same 503 and body, without the exception filter's error log.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const result = error.getResponse();
      this.log.notReady(result);
      reply?.status(503);
      return result;
    }
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
