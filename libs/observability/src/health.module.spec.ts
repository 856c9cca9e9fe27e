import type { HealthCheckService, HealthIndicatorFunction, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { DataSource } from 'typeorm';
import { DRAINING_READINESS, DrainState, HealthController, ReadinessChecks } from './health.module';

describe('ReadinessChecks', () => {
  it('returns the added checks in order, as a copy callers cannot change', () => {
    const readiness = new ReadinessChecks();
    const kafka: HealthIndicatorFunction = async () => ({ kafka: { status: 'up' } });
    const cache: HealthIndicatorFunction = async () => ({ cache: { status: 'up' } });
    readiness.add(kafka);
    readiness.add(cache);
    const all = readiness.all();
    all.pop();
    expect(readiness.all()).toEqual([kafka, cache]);
  });
});

describe('HealthController', () => {
  const health = { check: jest.fn((checks: HealthIndicatorFunction[]) => checks) };
  const pingCheck = jest.fn(() => ({
    withTimeout: (ms: number) => ({ database: { status: 'up', timeout: ms } }),
  }));
  const typeOrm = { pingCheck } as unknown as TypeOrmHealthIndicator;

  function controller(readiness: ReadinessChecks, dataSource?: DataSource, drain = new DrainState()): HealthController {
    return new HealthController(health as unknown as HealthCheckService, readiness, typeOrm, drain, dataSource);
  }

  it('answers liveness without checking any dependency', () => {
    expect(controller(new ReadinessChecks()).live()).toEqual({ status: 'ok' });
    expect(health.check).not.toHaveBeenCalled();
  });

  it('checks only the added dependencies when the service has no database', () => {
    const readiness = new ReadinessChecks();
    const kafka: HealthIndicatorFunction = async () => ({ kafka: { status: 'up' } });
    readiness.add(kafka);
    expect(controller(readiness).ready()).toEqual([kafka]);
  });

  it('pings the database first, with a timeout, when the service has one', async () => {
    const readiness = new ReadinessChecks();
    const kafka: HealthIndicatorFunction = async () => ({ kafka: { status: 'up' } });
    readiness.add(kafka);
    const checks = controller(readiness, {} as DataSource).ready() as unknown as HealthIndicatorFunction[];
    expect(checks).toHaveLength(2);
    expect(checks[1]).toBe(kafka);
    expect(await (checks[0] as () => unknown)()).toEqual({ database: { status: 'up', timeout: 1500 } });
    expect(pingCheck).toHaveBeenCalledWith('database');
  });

  it('answers not ready once the replica drains, without asking the database or any added check', async () => {
    const readiness = new ReadinessChecks();
    const kafka = jest.fn(async () => ({ kafka: { status: 'up' as const } }));
    readiness.add(kafka);
    const drain = new DrainState();
    const ready = controller(readiness, {} as DataSource, drain);
    expect(ready.ready() as unknown as HealthIndicatorFunction[]).toHaveLength(2);

    drain.begin();
    const reply = { status: jest.fn() };
    health.check.mockClear();
    expect(ready.ready(reply)).toEqual(DRAINING_READINESS);
    expect(reply.status).toHaveBeenCalledWith(503);
    expect(health.check).not.toHaveBeenCalled();
    expect(kafka).not.toHaveBeenCalled();
  });
});

