import { diag } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { logTracingProblems } from './tracing';

describe('logTracingProblems', () => {
  afterEach(() => diag.disable());

  it("sends the SDK's warnings and errors to the service log, and drops its chatter", () => {
    const logger = { warn: jest.fn(), error: jest.fn() } as unknown as Logger & { warn: jest.Mock; error: jest.Mock };
    logTracingProblems(logger);
    diag.error('export failed', 'ECONNREFUSED');
    diag.warn('dropped 3 spans');
    diag.info('started');
    diag.debug('details');
    expect(logger.error).toHaveBeenCalledWith({ component: 'opentelemetry', details: ['ECONNREFUSED'] }, 'export failed');
    expect(logger.warn).toHaveBeenCalledWith({ component: 'opentelemetry', details: undefined }, 'dropped 3 spans');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});
