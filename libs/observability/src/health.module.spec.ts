import { Logger, ServiceUnavailableException } from '@nestjs/common';
import type { HealthCheckService, HealthIndicatorFunction, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { DataSource } from 'typeorm';
import { DRAINING_READINESS, DrainState, HealthController, ReadinessChecks, ReadinessLog } from './health.module';

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
  const health = { check: jest.fn(async (checks: HealthIndicatorFunction[]): Promise<unknown> => checks) };
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

  it('checks only the added dependencies when the service has no database', async () => {
    const readiness = new ReadinessChecks();
    const kafka: HealthIndicatorFunction = async () => ({ kafka: { status: 'up' } });
    readiness.add(kafka);
    expect(await controller(readiness).ready()).toEqual([kafka]);
  });

  it('pings the database first, with a timeout, when the service has one', async () => {
    const readiness = new ReadinessChecks();
    const kafka: HealthIndicatorFunction = async () => ({ kafka: { status: 'up' } });
    readiness.add(kafka);
    const checks = (await controller(readiness, {} as DataSource).ready()) as unknown as HealthIndicatorFunction[];
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
    expect((await ready.ready()) as unknown as HealthIndicatorFunction[]).toHaveLength(2);

    drain.begin();
    const reply = { status: jest.fn() };
    health.check.mockClear();
    expect(await ready.ready(reply)).toEqual(DRAINING_READINESS);
    expect(reply.status).toHaveBeenCalledWith(503);
    expect(health.check).not.toHaveBeenCalled();
    expect(kafka).not.toHaveBeenCalled();
  });

  it('answers a failed check with 503 and terminus\'s result as the body, not as an exception', async () => {
    const result = { status: 'error', info: {}, error: { kafka: { status: 'down' } }, details: { kafka: { status: 'down' } } };
    health.check.mockImplementationOnce(async () => {
      throw new ServiceUnavailableException(result);
    });
    const reply = { status: jest.fn() };
    expect(await controller(new ReadinessChecks()).ready(reply)).toEqual(result);
    expect(reply.status).toHaveBeenCalledWith(503);
  });

  it('lets any other error through to the exception filter', async () => {
    health.check.mockImplementationOnce(async () => {
      throw new TypeError('a bug in a check');
    });
    await expect(controller(new ReadinessChecks()).ready({ status: jest.fn() })).rejects.toThrow('a bug in a check');
  });
});

describe('ReadinessLog', () => {
  const down = (name: string) => ({ status: 'error', error: { [name]: { status: 'down' } } });

  it('logs not ready once, naming the failed checks, until readiness changes; ready again once', () => {
    const logger = { log: jest.fn(), warn: jest.fn() };
    const log = new ReadinessLog(logger as unknown as Logger);
    log.ready();
    log.notReady(down('kafka'));
    log.notReady(down('kafka'));
    log.notReady(down('database'));
    log.ready();
    log.ready();
    expect(logger.warn.mock.calls).toEqual([['not ready: kafka (logged once until it changes)']]);
    expect(logger.log.mock.calls).toEqual([['ready again']]);
  });

  it('while starting (never ready yet) says so at info, once, and nothing when it becomes ready', () => {
    const logger = { log: jest.fn(), warn: jest.fn() };
    const log = new ReadinessLog(logger as unknown as Logger);
    log.notReady(undefined);
    log.notReady(down('kafka'));
    log.ready();
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.log.mock.calls).toEqual([['not ready yet: a check failed (logged once until it changes)'], ['ready']]);
  });
});
