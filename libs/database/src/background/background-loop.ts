import type { Client } from 'pg';
import { errorMessage, type ServiceLogger } from '@erp/observability';
import { backoffDelay, type BackoffOptions, sleep } from './backoff';
import { TimeoutError, withTimeout } from './deadline';
import { assertChannelName, type ListenOptions, ListenSession } from './listen-session';

/**
 * What a step tells the loop:
 * - `more`: there is more to do, run again at once (a full batch);
 * - `idle`: nothing left; run again on a NOTIFY, a `wake()` or after the poll interval;
 * - `pause`: run again after the poll interval, whatever wakes in between (a standby replica
 *   retrying a lock must not be woken by every commit of the active one).
 */
export type StepOutcome = 'more' | 'idle' | 'pause';

export interface LoopContext {
  /** Aborted by `stop()` (for `drain`: at the stop deadline); long steps end early on it. */
  readonly signal: AbortSignal;
  /** The LISTEN session, opened (and LISTENing) when there is none; throws when it cannot be. */
  session(): Promise<Client>;
}

export interface BackgroundLoopOptions {
  /** Starts every log line ("outbox relay: ..."). */
  name: string;
  logger: ServiceLogger;
  /** One round of work. A throw is a failure: logged, then retried after a backoff. */
  step(context: LoopContext): Promise<StepOutcome>;
  /** The fallback wake-up while idle, in ms: covers a notification lost while the session was down. */
  pollIntervalMs: number;
  /** Backoff after failed steps. Default 250 ms doubling to 5 s, jittered. */
  retry?: BackoffOptions;
  /** Wake on NOTIFY on this channel, through a session of the loop's own. Polling only without it. */
  listen?: ListenOptions;
  /** After each failed step, before the backoff (e.g. record the failure, drop a broken client). */
  onError?(error: unknown, consecutiveFailures: number): void | Promise<void>;
  /** At `stop()`, once the last step has ended and before the session closes (e.g. flush what is pending). */
  drain?(context: LoopContext): Promise<void>;
  /**
   * How long `stop()` waits for the running step and `drain` together, in ms; then it closes the
   * session anyway (a hung step must not hold a shutdown). Default: as long as they take.
   */
  stopTimeoutMs?: number;
  /** `after-poll`: the first step runs one poll interval after `start()` rather than at once. */
  firstStep?: 'now' | 'after-poll';
}

const DEFAULT_RETRY: BackoffOptions = { initialMs: 250, maxMs: 5_000 };

/**
 * Runs a step over and over in the background: at once while the step reports more work, on a
 * Postgres NOTIFY (or `wake()`) when idle with the poll interval as fallback, after an exponential,
 * jittered backoff when it fails. `stop()` waits for the running step, cancels every timer and
 * closes the session, so nothing is left running (Jest exits by itself).
 *
 * The session is the loop's and is exposed to the step, which should keep no state on it: behind
 * a transaction-mode pooler only the LISTEN is a session's (see the README's "Background loops").
 */
export class BackgroundLoop {
  private readonly retry: BackoffOptions;
  private run?: Promise<void>;
  private abort = new AbortController();
  private session?: ListenSession;
  private wakeRequested = false;
  private wakeWaiter?: () => void;
  private consecutiveFailures = 0;
  private listenFailures = 0;

  constructor(private readonly options: BackgroundLoopOptions) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    // A bad channel name is a programming error: say so at construction, not at the first connection.
    if (options.listen) assertChannelName(options.listen.channel);
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.run !== undefined;
  }

  /** Starts the loop in the background; failures are logged and retried, never thrown. */
  start(): void {
    if (this.run) return;
    this.abort = new AbortController();
    this.wakeRequested = false;
    this.consecutiveFailures = 0;
    this.listenFailures = 0;
    this.session = this.listenSession();
    this.run = this.loop(this.abort.signal).catch((error: unknown) =>
      this.options.logger.error(`${this.options.name}: stopped by an unexpected error: ${errorMessage(error)}`),
    );
  }

  /** Runs the step soon: at once when idle, after the current step when busy. */
  wake(): void {
    this.wakeRequested = true;
    this.wakeWaiter?.();
  }

  /**
   * Stops: ends any wait or backoff at once, lets the running step finish (within `stopTimeoutMs`),
   * runs `drain`, then closes the session. Safe to call twice; `start()` may follow.
   */
  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    this.abort.abort();
    const deadline = this.options.stopTimeoutMs === undefined ? undefined : Date.now() + this.options.stopTimeoutMs;
    const ended = await this.until(run.then(() => true), deadline);
    if (ended && this.options.drain) await this.drain(this.options.drain, deadline);
    await this.session?.close();
  }

  private async loop(signal: AbortSignal): Promise<void> {
    const context: LoopContext = { signal, session: () => this.openSession() };
    let outcome: StepOutcome = this.options.firstStep === 'after-poll' ? 'pause' : 'more';
    while (!signal.aborted) {
      if (outcome === 'idle') await this.idle(signal);
      else if (outcome === 'pause') await sleep(this.options.pollIntervalMs, signal);
      if (signal.aborted) return;
      try {
        outcome = await this.options.step(context);
        if (this.consecutiveFailures > 0) this.options.logger.log(`${this.options.name}: working again after ${this.consecutiveFailures} failure(s)`);
        this.consecutiveFailures = 0;
      } catch (error) {
        // A step cut short by stop() is not a failure worth reporting.
        if (signal.aborted) return;
        await this.backOff(error, signal);
        outcome = 'more';
      }
    }
  }

  private async backOff(error: unknown, signal: AbortSignal): Promise<void> {
    const failures = ++this.consecutiveFailures;
    const delay = backoffDelay(failures, this.retry);
    const line = `${this.options.name}: ${errorMessage(error)}; retrying in ${delay} ms (failure ${failures})`;
    // The first failure of an outage is worth a warning; the rest of it only at debug level.
    if (failures === 1) this.options.logger.warn(line);
    else this.options.logger.debug(line);
    try {
      await this.options.onError?.(error, failures);
    } catch (hookError) {
      this.options.logger.warn(`${this.options.name}: failure handler failed: ${errorMessage(hookError)}`);
    }
    await sleep(delay, signal);
  }

  /** Waits for a NOTIFY, a `wake()`, the poll interval or `stop()`, whichever comes first. */
  private async idle(signal: AbortSignal): Promise<void> {
    // A lost session is replaced before waiting, so that the next notification is not missed too.
    if (this.session && !this.session.current) await this.openQuietly();
    if (!this.wakeRequested && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.wakeWaiter = undefined;
          resolve();
        };
        const timer = setTimeout(done, this.options.pollIntervalMs);
        signal.addEventListener('abort', done, { once: true });
        this.wakeWaiter = done;
      });
    }
    this.wakeRequested = false;
  }

  private listenSession(): ListenSession | undefined {
    const listen = this.options.listen;
    if (!listen) return undefined;
    const onLost = (error: Error) => {
      this.options.logger.warn(`${this.options.name}: lost its database session (${error.message}); a new one is opened when next needed`);
      listen.onLost?.(error);
    };
    return new ListenSession({ ...listen, onLost }, () => this.wake());
  }

  private async openSession(): Promise<Client> {
    if (!this.session) throw new Error(`${this.options.name}: no session (the loop has no listen option)`);
    const known = this.session.current;
    const client = await this.session.open();
    // Whatever was notified while there was no session is lost: look once more instead.
    if (client !== known) this.wakeRequested = true;
    return client;
  }

  /** While idle, a session is only for waking up: without one the loop polls. */
  private async openQuietly(): Promise<void> {
    try {
      await this.openSession();
      if (this.listenFailures > 0) this.options.logger.log(`${this.options.name}: listening on ${this.session?.channel} again`);
      this.listenFailures = 0;
    } catch (error) {
      const line = `${this.options.name}: cannot LISTEN (${errorMessage(error)}); polling every ${this.options.pollIntervalMs} ms`;
      if (++this.listenFailures === 1) this.options.logger.warn(line);
      else this.options.logger.debug(line);
    }
  }

  private async drain(drain: (context: LoopContext) => Promise<void>, deadline: number | undefined): Promise<void> {
    const controller = new AbortController();
    const timer = deadline === undefined ? undefined : setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
    const context: LoopContext = { signal: controller.signal, session: () => this.openSession() };
    try {
      await this.until(drain(context), deadline);
    } catch (error) {
      this.options.logger.warn(`${this.options.name}: draining at stop failed: ${errorMessage(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The promise's value, or undefined once the deadline passed (no deadline: waits). */
  private async until<T>(promise: Promise<T>, deadline: number | undefined): Promise<T | undefined> {
    if (deadline === undefined) return promise;
    return withTimeout(promise, deadline - Date.now()).catch((error: unknown) => {
      if (error instanceof TimeoutError) return undefined;
      throw error;
    });
  }
}
