import { Inject, Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import type { DataSource } from 'typeorm';
import { ReadinessChecks } from '@erp/observability';
import type { ClassReference } from '../data-source/create-data-source';
import { missingExpandMigrations } from '../migrations/schema-status';
import { runAsService } from '../tenancy/tenant-scope';

/** The migrations the service's code was built with (DatabaseModule's `migrations`). */
export const SERVICE_MIGRATIONS = Symbol('SERVICE_MIGRATIONS');

/**
 * The schema gate (docs/migrations.md): `/health/ready` is `down` while the database lacks an
 * expand migration this code needs, naming them, so a pod of a new release never takes traffic
 * before the migration Job has run. Once the schema is complete it stays so (migrations are never
 * undone), and the check is not made again.
 */
@Injectable()
export class SchemaReadiness implements OnModuleInit {
  private complete = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SERVICE_MIGRATIONS) private readonly migrations: ClassReference[],
    @Optional() private readonly readiness?: ReadinessChecks,
  ) {}

  onModuleInit(): void {
    this.readiness?.add(() => this.check());
  }

  async check(): Promise<HealthIndicatorResult<'schema'>> {
    if (this.complete) return { schema: { status: 'up' } };
    // The migrations table belongs to the service, not to a company: read as the service.
    const missing = await runAsService(() => missingExpandMigrations(this.dataSource, this.migrations));
    this.complete = missing.length === 0;
    return this.complete ? { schema: { status: 'up' } } : { schema: { status: 'down', message: 'expand migrations not applied yet', missing } };
  }
}
