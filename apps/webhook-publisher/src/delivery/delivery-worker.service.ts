import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { connectionConfigOf } from '@erp/database';
import { DeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker';
import { reportSubscriptions } from './subscription-metrics';

export const DELIVERY_SETTINGS = Symbol('DELIVERY_SETTINGS');
export type DeliverySettings = Omit<DeliveryWorkerOptions, 'dataSource' | 'listenSession' | 'logger'> & {
  /** False: this process serves the API only. */
  enabled: boolean;
};

/** The delivery worker inside the Nest app: starts after bootstrap, drains before the database closes. */
@Injectable()
export class DeliveryWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker?: DeliveryWorker;
  private stopReporting?: () => void;

  constructor(
    @Inject(DELIVERY_SETTINGS) settings: DeliverySettings,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    if (!settings.enabled) return;
    const { enabled: _enabled, ...options } = settings;
    this.worker = new DeliveryWorker({
      ...options,
      dataSource,
      listenSession: connectionConfigOf(dataSource, 'webhook-publisher-listen', 'session'),
      logger: new Logger('DeliveryWorker'),
    });
  }

  onApplicationBootstrap(): void {
    this.worker?.start();
    // Every replica reports the counts (one query per scrape), the API-only ones too.
    this.stopReporting = reportSubscriptions(this.dataSource);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopReporting?.();
    await this.worker?.stop();
  }

  /** Deletes events past the retention period now (it also runs every 10 minutes). */
  cleanup(): Promise<number> {
    return this.worker?.cleanup() ?? Promise.resolve(0);
  }

  /** Looks for due deliveries now (after a replay, for example). */
  wake(): void {
    this.worker?.wake();
  }
}
