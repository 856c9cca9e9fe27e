import { createLogger } from '../logger';

// A process that logs through a buffered logger, for logger-buffer.spec.ts:
//   <then> = exit: log one info line, exit at once;
//   <then> = stay: log one info line, stay alive (the parent kills it);
//   <then> = error: log an info line and an error line, stay alive.
// argv: <then> <flushIntervalMs>
const [then, interval] = process.argv.slice(2);
const logger = createLogger({ service: 'fixture', bufferBytes: 4096, flushIntervalMs: Number(interval) });
logger.info('first');
if (then === 'error') logger.error('broken');
if (then === 'exit') process.exit(0);
setInterval(() => undefined, 60_000);
