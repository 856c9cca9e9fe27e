import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { closeGracefully, drainLimitsFrom } from './run-service';

const logger = { info: jest.fn(), error: jest.fn() } as unknown as Logger;

function appWith(
  closeHttp: () => Promise<void>,
  closeApp: () => Promise<void>,
  order: string[] = [],
): NestFastifyApplication {
  return {
    getHttpAdapter: () => ({
      close: async () => {
        await closeHttp();
        order.push('http');
      },
    }),
    close: async () => {
      await closeApp();
      order.push('app');
    },
  } as unknown as NestFastifyApplication;
}

describe('closeGracefully', () => {
  it('drains HTTP first, then runs the app shutdown hooks, and resolves 0', async () => {
    const order: string[] = [];
    await expect(
      closeGracefully(
        appWith(
          async () => undefined,
          async () => undefined,
          order,
        ),
        logger,
        'SIGTERM',
        { timeoutMs: 1000 },
      ),
    ).resolves.toBe(0);
    expect(order).toEqual(['http', 'app']);
  });

  it('resolves 1 when shutting down takes longer than the timeout', async () => {
    const never = () => new Promise<void>(() => undefined);
    await expect(
      closeGracefully(
        appWith(never, async () => undefined),
        logger,
        'SIGTERM',
        { timeoutMs: 20 },
      ),
    ).resolves.toBe(1);
  });

  it('resolves 1 when a shutdown hook fails', async () => {
    const failing = async () => {
      throw new Error('boom');
    };
    await expect(
      closeGracefully(
        appWith(async () => undefined, failing),
        logger,
        'SIGINT',
        { timeoutMs: 1000 },
      ),
    ).resolves.toBe(1);
  });

  it('runs afterClose (the span flush) last, once the app has closed, within the same time limit', async () => {
    const order: string[] = [];
    const afterClose = async () => {
      order.push('flush');
    };
    await expect(closeGracefully(appWith(async () => undefined, async () => undefined, order), logger, 'SIGTERM', { timeoutMs: 1000, afterClose })).resolves.toBe(0);
    expect(order).toEqual(['http', 'app', 'flush']);

    const never = () => new Promise<void>(() => undefined);
    await expect(closeGracefully(appWith(async () => undefined, async () => undefined), logger, 'SIGTERM', { timeoutMs: 20, afterClose: never })).resolves.toBe(1);
  });
});

describe('drainLimitsFrom', () => {
  it('keeps the listener open for the quiet period, and at most the keep-alive timeout longer', () => {
    expect(drainLimitsFrom({ SHUTDOWN_QUIET_MS: 1000, KEEP_ALIVE_TIMEOUT_MS: 5000, SHUTDOWN_TIMEOUT_MS: 25_000 })).toEqual({ quietMs: 1000, maxMs: 6000 });
  });

  it('never takes more than half the shutdown time (the gateway keeps connections 72 s)', () => {
    expect(drainLimitsFrom({ SHUTDOWN_QUIET_MS: 1000, KEEP_ALIVE_TIMEOUT_MS: 72_000, SHUTDOWN_TIMEOUT_MS: 20_000 })).toEqual({ quietMs: 1000, maxMs: 10_000 });
  });
});
