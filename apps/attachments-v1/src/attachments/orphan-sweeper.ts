import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { BackgroundLoop, runAsService } from '@erp/database';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';
import { AttachmentsRepository } from './repository/attachments.repository';

export const ORPHAN_SWEEPER_SETTINGS = Symbol('ORPHAN_SWEEPER_SETTINGS');
export interface OrphanSweeperSettings {
  maxAgeMinutes: number;
  /** 0: never on a timer (tests call `sweep`). */
  intervalSeconds: number;
}

const BATCH = 100;

/**
 * Deletes bytes whose upload never committed: every `pending_uploads` row older than the maximum
 * age names an object that no metadata points at (the row is deleted in the same transaction that
 * makes an attachment visible). Each row is claimed with `FOR UPDATE SKIP LOCKED`, so replicas
 * share the work, and it is deleted only after its object: a failure leaves the row for next time.
 * An upload still running when its row is claimed fails at commit (its row is gone) and is never
 * shown, so the sweeper can never delete the bytes of a visible attachment.
 */
@Injectable()
export class OrphanSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OrphanSweeper.name);
  private loop?: BackgroundLoop;

  constructor(
    private readonly attachments: AttachmentsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(ORPHAN_SWEEPER_SETTINGS) private readonly settings: OrphanSweeperSettings,
  ) {}

  onModuleInit(): void {
    if (this.settings.intervalSeconds <= 0) return;
    const intervalMs = this.settings.intervalSeconds * 1000;
    this.loop = new BackgroundLoop({
      name: 'orphan sweeper',
      logger: this.logger,
      step: async () => {
        await this.sweep();
        return 'idle';
      },
      pollIntervalMs: intervalMs,
      // Nothing wakes it but the clock. A failed sweep (storage or database away) is tried again
      // after 5 s doubling up to the interval: soon after a blip, no busier during an outage.
      retry: { initialMs: Math.min(5_000, intervalMs), maxMs: intervalMs },
      // Not at start-up: a booting replica has other work, and orphans only need to go eventually.
      firstStep: 'after-poll',
    });
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop?.stop();
  }

  /**
   * Deletes abandoned uploads older than `maxAgeMinutes` (default: the configured age); returns how
   * many. Background work across companies: it runs as the service itself, never in the scope
   * (and behind the tenant wall) of whatever request might have triggered it.
   */
  sweep(maxAgeMinutes = this.settings.maxAgeMinutes): Promise<number> {
    return runAsService(() => this.sweepAll(maxAgeMinutes));
  }

  private async sweepAll(maxAgeMinutes: number): Promise<number> {
    let total = 0;
    for (;;) {
      const swept = await this.attachments.transaction(async (tx) => {
        const keys = await this.attachments.claimAbandoned(tx, maxAgeMinutes, BATCH);
        for (const key of keys) {
          await this.storage.delete(key);
          await this.attachments.deletePending(key, tx);
        }
        return keys.length;
      });
      total += swept;
      if (swept < BATCH) break;
    }
    if (total > 0) this.logger.log(`Deleted the bytes of ${total} abandoned upload(s)`);
    return total;
  }
}
