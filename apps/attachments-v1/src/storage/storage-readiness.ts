import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ReadinessChecks } from '@erp/observability';
import { OBJECT_STORAGE, type ObjectStorage } from './object-storage';

const CHECK_TIMEOUT_MS = 1500;

/** `/health/ready` includes the object store: without it no upload or download can work. */
@Injectable()
export class StorageReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessChecks,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  onModuleInit(): void {
    this.readiness.add(async () => {
      const key = 'storage';
      try {
        await Promise.race([
          this.storage.check(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref()),
        ]);
        return { [key]: { status: 'up', driver: this.storage.driver } };
      } catch (error) {
        return { [key]: { status: 'down', driver: this.storage.driver, message: String((error as Error).message ?? error) } };
      }
    });
  }
}
