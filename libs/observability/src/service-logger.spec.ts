import { Logger } from '@nestjs/common';
import type { Logger as PinoLogger } from 'pino';
import { PinoNestLogger } from './logger';
import { errorMessage, type ServiceLogger } from './service-logger';

describe('ServiceLogger', () => {
  it("is satisfied by Nest's Logger and by the pino-backed Nest logger, without an adapter", () => {
    // The assignments are the check (the type-check fails if either stops fitting).
    const nest: ServiceLogger = new Logger('test');
    const pino: ServiceLogger = new PinoNestLogger({} as PinoLogger);
    expect([nest, pino].every((logger) => typeof logger.debug === 'function')).toBe(true);
  });
});

describe('errorMessage', () => {
  it("names an error's class before its message, and prints anything else as it is", () => {
    expect(errorMessage(new TypeError('bad'))).toBe('TypeError: bad');
    expect(errorMessage('plain')).toBe('plain');
  });
});
