import { type DynamicModule, Inject, Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR, HttpAdapterHost } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { BackgroundLoop, runAsCompany, runAsService } from '@erp/database';
import { AnswerReplay, errorFamilyForPath, renderError } from '@erp/errors';
import { IdempotencyInterceptor, KEYED_REQUEST } from './idempotency.interceptor';
import type { KeyedRequest } from './keyed-request';
import { claimKey, completeAnswer, releaseClaim, removeAnswersBefore, STORED_HEADERS, type StoredAnswer } from './stored-answers';

export interface IdempotencyOptions {
  /** How long a stored answer is kept (IDEMPOTENCY_KEY_RETENTION_HOURS): at least 24 h. */
  retentionHours: number;
  /** How often old answers are removed, in seconds; 0: never on a timer (tests call `sweep`). */
  sweepIntervalSeconds?: number;
}

const OPTIONS = Symbol('IDEMPOTENCY_OPTIONS');
const SWEEP_BATCH = 500;

/**
 * Stores each keyed write's answer with its effect, and removes old ones (see the interceptor).
 * The answer is stored in Fastify's onSend, where it is final (status, headers, the serialized
 * body) and not yet sent: its insert and the commit of the write's transaction happen there, so
 * a client that gets an answer gets one that is stored, and a crash before the commit leaves
 * neither the effect nor the key. A 5xx is not stored, and its write is rolled back: its retry may
 * do the work. A 409 for a key in use and a stored answer sent again are not stored either.
 */
@Injectable()
export class KeyedAnswers implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private loop?: BackgroundLoop;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(OPTIONS) private readonly options: IdempotencyOptions,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onSend', (request, reply, payload) => this.settle(request, reply, payload));
    const intervalSeconds = this.options.sweepIntervalSeconds ?? 600;
    if (intervalSeconds <= 0) return;
    this.loop = new BackgroundLoop({
      name: 'idempotency keys sweeper',
      logger: this.logger,
      step: async () => ((await this.sweepOnce()) === SWEEP_BATCH ? 'more' : 'idle'),
      pollIntervalMs: intervalSeconds * 1000,
      firstStep: 'after-poll',
    });
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  /** Removes every answer older than the retention, in batches; returns how many. */
  async sweep(now = new Date()): Promise<number> {
    let total = 0;
    for (let removed = SWEEP_BATCH; removed === SWEEP_BATCH; total += removed) removed = await this.sweepOnce(now);
    return total;
  }

  private sweepOnce(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.options.retentionHours * 3_600_000);
    return runAsService(() => this.db.transaction((tx) => removeAnswersBefore(tx, cutoff, SWEEP_BATCH)));
  }

  private async settle(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const keyed = (request as FastifyRequest & { [KEYED_REQUEST]?: KeyedRequest })[KEYED_REQUEST];
    if (!keyed) return payload;
    const pending = keyed.pending;
    keyed.pending = undefined;
    // A write's answer is JSON text, or nothing (a 202 of the line operations); a streamed answer
    // (no write gives one) cannot be stored, and its write commits as it would without a key.
    const body = payload === undefined || payload === null ? Buffer.alloc(0) : typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
    const failed = keyed.settled || reply.statusCode >= 500;
    const answer: StoredAnswer | undefined =
      !failed && keyed.storable && body !== undefined ? { fingerprint: keyed.requestFingerprint, status: reply.statusCode, headers: storedHeaders(reply), body } : undefined;
    if (pending) {
      try {
        if (failed) {
          await pending.rollbackTransaction();
        } else {
          if (answer) await completeAnswer(pending.manager, keyed.scope, answer);
          else await releaseClaim(pending.manager, keyed.scope);
          await pending.commitTransaction();
          for (const work of keyed.afterCommit.splice(0)) await work();
        }
      } catch (error) {
        if (pending.isTransactionActive) await pending.rollbackTransaction().catch(() => undefined);
        throw error;
      } finally {
        await pending.release();
      }
    } else if (answer) {
      // An answer without a write (a 4xx before the handler wrote): stored on its own with its
      // claim, or, if the key has one already (this is a retry), that one instead; none while a
      // request that is writing holds the key (its answer is the one to keep).
      const claim = await runAsCompany(keyed.scope.companyId, () => this.db.transaction((tx) => claimKey(tx, keyed.scope, answer.fingerprint, answer)));
      if (!claim.claimed && !claim.inUse) return this.sendInstead(keyed, request, reply, claim.stored);
    }
    return payload;
  }

  /** A retry that failed before writing gets the stored answer (or the 422 of a key reused) instead. */
  private sendInstead(keyed: KeyedRequest, request: FastifyRequest, reply: FastifyReply, stored: StoredAnswer): Buffer | string {
    const instead = keyed.answerFrom(stored);
    if (instead instanceof AnswerReplay) {
      void reply.code(instead.status).headers(instead.headers);
      return instead.body;
    }
    const path = (request.url ?? '/').split('?')[0] as string;
    const rendered = renderError(instead, errorFamilyForPath(path), path);
    void reply.code(rendered.status).headers(rendered.headers);
    return JSON.stringify(rendered.body);
  }
}

function storedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/** Idempotency-Key on every POST and PATCH of a service with a database (after DatabaseModule). */
@Module({})
export class IdempotencyModule {
  static forRoot(options: IdempotencyOptions): DynamicModule {
    return {
      module: IdempotencyModule,
      providers: [{ provide: OPTIONS, useValue: options }, KeyedAnswers, { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor }],
      exports: [KeyedAnswers],
    };
  }
}
