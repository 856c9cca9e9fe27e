import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { ServiceLogger } from '@erp/observability';
import { createScratchDatabase } from '../test-support/scratch-database';
import { BackgroundLoop, type BackgroundLoopOptions, type StepOutcome } from './background-loop';
import { sleep } from './backoff';
import { withTimeout } from './deadline';

/** A fallback (poll, backoff) far beyond any wait of this file: whatever happens sooner was not it. */
const AN_HOUR = 60 * 60_000;
/** How long `stop()` may take where it must end at once: far below AN_HOUR, far above its real few ms. */
const STOP_PATIENCE_MS = 60_000;

/** Every line the loop logs, by level: what an operator would see. */
class RecordingLogger implements ServiceLogger {
  readonly lines: Array<{ level: string; message: string }> = [];
  debug = (message: string) => this.lines.push({ level: 'debug', message });
  log = (message: string) => this.lines.push({ level: 'log', message });
  warn = (message: string) => this.lines.push({ level: 'warn', message });
  error = (message: string) => this.lines.push({ level: 'error', message });
  at(level: string): string[] {
    return this.lines.filter((line) => line.level === level).map((line) => line.message);
  }
}

async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The first index `find` gives that is not -1, once it gives one. */
async function eventuallyIndex(what: string, find: () => number): Promise<number> {
  await eventually(what, () => find() !== -1);
  return find();
}

/** Timers and sockets alive in this process (what keeps Jest from exiting). */
function liveHandles(): { timers: number; sockets: number } {
  const resources = process.getActiveResourcesInfo();
  return {
    timers: resources.filter((kind) => kind === 'Timeout').length,
    sockets: resources.filter((kind) => kind === 'TCPSocketWrap').length,
  };
}

describe('BackgroundLoop over real PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  let admin: Client;
  let loop: BackgroundLoop | undefined;
  let logger: RecordingLogger;
  let channel: string;
  let applicationName: string;

  beforeAll(async () => {
    database = await createScratchDatabase('background_loop');
    admin = new Client(database.url);
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  beforeEach(() => {
    logger = new RecordingLogger();
    const suffix = randomBytes(4).toString('hex');
    channel = `test_loop_${suffix}`;
    applicationName = `background-loop-test-${suffix}`;
  });

  afterEach(async () => {
    await loop?.stop();
    loop = undefined;
  });

  function startLoop(options: Partial<BackgroundLoopOptions> & Pick<BackgroundLoopOptions, 'step'>): BackgroundLoop {
    loop = new BackgroundLoop({ name: 'test loop', logger, pollIntervalMs: 60_000, ...options });
    loop.start();
    return loop;
  }

  const listen = () => ({ channel, connection: { connectionString: database.url, application_name: applicationName } });

  async function loopSessions(): Promise<number> {
    const { rows } = await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [
      applicationName,
    ]);
    return rows[0]!.n;
  }

  it('wakes on a NOTIFY of its channel at once, long before the poll interval', async () => {
    let steps = 0;
    // The poll is an hour away, beyond the waits' patience: a step within it came from the NOTIFY.
    startLoop({ pollIntervalMs: AN_HOUR, step: async () => (steps++, 'idle'), listen: listen() });
    // The first step, then the one more look that opening the session asks for (notifications
    // before it were lost); after those the loop waits.
    await eventually('the first step, the LISTEN and the look after it', async () => steps >= 2 && (await loopSessions()) === 1);
    const before = steps;

    await admin.query(`SELECT pg_notify($1, '')`, [channel]);
    await eventually('a step after the NOTIFY', () => steps > before);

    // Another channel's notification is not its business.
    const after = steps;
    await admin.query(`SELECT pg_notify($1, '')`, [`${channel}_other`]);
    await sleep(200);
    expect(steps).toBe(after);
  });

  it('runs again at once while the step reports more, not a poll interval later', async () => {
    const outcomes: StepOutcome[] = ['more', 'more', 'more', 'idle'];
    let steps = 0;
    // The poll is an hour away, beyond the wait's patience: four steps mean the "more" ones ran at once.
    startLoop({ pollIntervalMs: 60 * 60_000, step: async () => (steps++, outcomes.shift() ?? 'idle') });
    await eventually('the three "more" steps and the idle one after them', () => steps >= 4);
    await sleep(200);
    expect(steps).toBe(4);
  });

  it('falls back to polling without a session: one step per poll interval once idle', async () => {
    const times: number[] = [];
    startLoop({ pollIntervalMs: 300, step: async () => (times.push(Date.now()), 'idle') });
    await eventually('two polls after the first step', () => times.length >= 3);
    // Timers never fire early, so these hold on any machine.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(290);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(290);
  });

  it('backs off exponentially on errors, reports each, and says so once it works again', async () => {
    const times: number[] = [];
    const reported: number[] = [];
    startLoop({
      retry: { initialMs: 100, maxMs: 400 },
      step: async () => {
        times.push(Date.now());
        if (times.length <= 4) throw new Error(`database away (${times.length})`);
        return 'idle';
      },
      onError: (_error, failures) => void reported.push(failures),
    });
    await eventually('a step that succeeds after four failures', () => times.length >= 5);

    // Equal jitter: each pause is at least half its un-jittered delay (100, 200, 400, 400 ms).
    const pauses = times.slice(1).map((time, i) => time - times[i]!);
    [50, 100, 200, 200].forEach((floor, i) => expect(pauses[i]).toBeGreaterThanOrEqual(floor - 5));
    // The delays the loop chose (its log lines say them): doubling, jittered, capped at maxMs (the
    // fourth un-capped would be 800 ms). The pauses above show it slept each.
    const delays = [...logger.at('warn'), ...logger.at('debug')].map((line) => Number(/retrying in (\d+) ms/.exec(line)?.[1]));
    [[50, 100], [100, 200], [200, 400], [200, 400]].forEach(([low, high], i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(low!);
      expect(delays[i]).toBeLessThanOrEqual(high!);
      expect(pauses[i]).toBeGreaterThanOrEqual(delays[i]! - 5);
    });
    expect(reported).toEqual([1, 2, 3, 4]);
    // One warning per outage; the repeats at debug level; one line when it is over.
    expect(logger.at('warn')).toEqual([expect.stringMatching(/^test loop: Error: database away \(1\); retrying in \d+ ms \(failure 1\)$/)]);
    expect(logger.at('debug')).toEqual([2, 3, 4].map((n) => expect.stringMatching(new RegExp(`retrying in \\d+ ms \\(failure ${n}\\)$`))));
    expect(logger.at('log')).toEqual(['test loop: working again after 4 failure(s)']);
  });

  it('does not cut a pause short when woken (a standby retrying a lock)', async () => {
    const times: number[] = [];
    startLoop({
      pollIntervalMs: 400,
      listen: listen(),
      step: async ({ session }) => {
        await session();
        times.push(Date.now());
        return 'pause';
      },
    });
    await eventually('the first step', () => times.length === 1);
    loop!.wake();
    await admin.query(`SELECT pg_notify($1, '')`, [channel]);
    await eventually('the second step', () => times.length === 2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(390);
  });

  it('starts with a wait when asked to', async () => {
    const started = Date.now();
    let firstStepAt = 0;
    startLoop({ pollIntervalMs: 300, firstStep: 'after-poll', step: async () => ((firstStepAt ||= Date.now()), 'idle') });
    await eventually('the first step', () => firstStepAt > 0);
    expect(firstStepAt - started).toBeGreaterThanOrEqual(290);
  });

  it('gives the step its session, and replaces a lost one (whose loss it reports) to keep listening', async () => {
    const lost: string[] = [];
    const pids: number[] = [];
    // The poll is an hour away: the test wakes the loop itself where the poll would, so that only
    // the NOTIFY at the end can explain the step after it.
    startLoop({
      pollIntervalMs: AN_HOUR,
      listen: { ...listen(), onLost: (error) => lost.push(error.message) },
      step: async ({ session }) => {
        const { rows } = await (await session()).query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        pids.push(rows[0]!.pid);
        return 'idle';
      },
    });
    // The first step and the look after it (its session was new): then the loop waits, no step running.
    await eventually('the first step and the look after it', () => pids.length >= 2);
    await admin.query('SELECT pg_terminate_backend($1)', [pids[0]]);
    await eventually('the loss to be noticed', () => lost.length === 1);
    expect(logger.at('warn')).toEqual([expect.stringMatching(/^test loop: lost its database session \(/)]);
    loop!.wake();
    // The step on the new session, and the one more look that opening it asks for.
    const firstOnNew = await eventuallyIndex('a step on a new session', () => pids.findIndex((pid) => pid !== pids[0]));
    await eventually('the look after the new session', () => pids.length >= firstOnNew + 2);
    expect(await loopSessions()).toBe(1);

    // The new session LISTENs too.
    const before = pids.length;
    await admin.query(`SELECT pg_notify($1, '')`, [channel]);
    await eventually('a step after the NOTIFY', () => pids.length > before);
  });

  it('stops cleanly: waits for the running step, drains, then closes its session and leaves no timer or socket', async () => {
    const baseline = liveHandles();
    let release!: () => void;
    const events: string[] = [];
    let drainSessionPid = 0;
    startLoop({
      pollIntervalMs: 100,
      retry: { initialMs: 10_000, maxMs: 10_000 },
      listen: listen(),
      step: async ({ session }) => {
        await session();
        events.push('step');
        await new Promise<void>((resolve) => (release = resolve));
        events.push('step done');
        return 'idle';
      },
      drain: async ({ session }) => {
        const { rows } = await (await session()).query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        drainSessionPid = rows[0]!.pid;
        events.push('drain');
      },
    });
    await eventually('a step in progress', () => events.includes('step'));
    expect(await loopSessions()).toBe(1);

    let stopped = false;
    const stopping = loop!.stop().then(() => (stopped = true));
    await sleep(100);
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(events).toEqual(['step', 'step done', 'drain']);
    expect(drainSessionPid).toBeGreaterThan(0);
    expect(await loopSessions()).toBe(0);
    expect(liveHandles()).toEqual(baseline);
    expect(loop!.running).toBe(false);
    await sleep(250);
    expect(events.filter((event) => event === 'step')).toHaveLength(1);
  });

  it('gives up waiting for a hung step after stopTimeoutMs, skips the drain and still closes the session', async () => {
    let drained = false;
    let stepStarted = false;
    startLoop({
      listen: listen(),
      stopTimeoutMs: 300,
      step: async ({ session }) => {
        await session();
        stepStarted = true;
        await new Promise(() => undefined);
        return 'idle';
      },
      drain: async () => void (drained = true),
    });
    await eventually('the step to hang', () => stepStarted);

    // The step never ends, and without stopTimeoutMs stop() would wait for it for ever: that it
    // returns at all shows the give-up; that it took stopTimeoutMs, that it waited first.
    const started = Date.now();
    await withTimeout(loop!.stop(), STOP_PATIENCE_MS, 'stop() still waits for the hung step');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(drained).toBe(false);
    await eventually('the session to be closed', async () => (await loopSessions()) === 0);
  });

  // The wait and the backoff are an hour long: stop() returning within STOP_PATIENCE_MS ended them.
  it.each([
    ['waiting for a NOTIFY', (): Partial<BackgroundLoopOptions> => ({ pollIntervalMs: AN_HOUR, listen: listen(), step: async () => 'idle' })],
    [
      'backing off',
      (): Partial<BackgroundLoopOptions> => ({
        retry: { initialMs: AN_HOUR, maxMs: AN_HOUR },
        step: async () => {
          throw new Error('always');
        },
      }),
    ],
  ])('ends at once when stopped while %s, leaving no timer or socket', async (_state, options) => {
    const baseline = liveHandles();
    let steps = 0;
    const { step, ...rest } = options();
    startLoop({ ...rest, step: async (context) => (steps++, step!(context)) });
    await eventually('the first step', () => steps > 0);
    await sleep(100);

    await withTimeout(loop!.stop(), STOP_PATIENCE_MS, 'stop() waits out the hour-long wait');
    expect(liveHandles()).toEqual(baseline);
    expect(await loopSessions()).toBe(0);
  });

  it('refuses a channel name that is not a plain lower-case identifier', () => {
    expect(
      () => new BackgroundLoop({ name: 'x', logger, pollIntervalMs: 1, step: async () => 'idle', listen: { channel: 'a; DROP TABLE x', connection: database.url } }),
    ).toThrow(/not a lower-case SQL identifier/);
  });
});
