import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { defineGauge } from '@erp/observability';

/**
 * The service pool's connections, read at scrape time, named after OpenTelemetry's
 * `db.client.connections.*` conventions. `pool` is the DataSource's application name (the
 * service), so two services booted in one test process report apart. Saturation is
 * `used / max`, and `pending_requests` > 0 means requests are queueing for a connection.
 */
const poolSources = new Map<string, () => Pool | undefined>();

const collectAll = (set: (pool: string, value: Pool) => void) => {
  for (const [name, read] of poolSources) {
    const pool = read();
    if (pool) set(name, pool);
  }
};

export const poolConnectionUsage = defineGauge<'pool' | 'state'>({
  name: 'db_client_connections_usage',
  help: 'Connections of the service pool by state: used (checked out) or idle',
  labelNames: ['pool', 'state'],
  collect() {
    collectAll((name, pool) => {
      this.set({ pool: name, state: 'used' }, pool.totalCount - pool.idleCount);
      this.set({ pool: name, state: 'idle' }, pool.idleCount);
    });
  },
});

export const poolConnectionsMax = defineGauge<'pool'>({
  name: 'db_client_connections_max',
  help: 'Most connections the service pool opens (DATABASE_POOL_SIZE)',
  labelNames: ['pool'],
  collect() {
    collectAll((name, pool) => this.set({ pool: name }, pool.options.max));
  },
});

export const poolPendingRequests = defineGauge<'pool'>({
  name: 'db_client_connections_pending_requests',
  help: 'Requests waiting for a connection of the service pool',
  labelNames: ['pool'],
  collect() {
    collectAll((name, pool) => this.set({ pool: name }, pool.waitingCount));
  },
});

/**
 * The part of TypeORM's PostgresDriver read here: its public `master` field holds the pg Pool. Typed
 * by shape because the driver's class is not exported from typeorm's entry point, and its deep
 * path does not resolve under every module setting the workspace type-checks with.
 */
interface PostgresDriverPool {
  master?: Pool;
}

/**
 * Reports the DataSource's pool on /metrics while the app runs. pg's Pool exposes the counts read
 * here.
 */
@Injectable()
export class PoolMetrics implements OnModuleInit, OnApplicationShutdown {
  private readonly name: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const options = dataSource.options as { applicationName?: string };
    this.name = options.applicationName ?? 'service';
  }

  onModuleInit(): void {
    poolSources.set(this.name, () => (this.dataSource.isInitialized ? (this.dataSource.driver as unknown as PostgresDriverPool).master : undefined));
  }

  onApplicationShutdown(): void {
    poolSources.delete(this.name);
    for (const state of ['used', 'idle']) poolConnectionUsage.remove({ pool: this.name, state });
    poolConnectionsMax.remove({ pool: this.name });
    poolPendingRequests.remove({ pool: this.name });
  }
}
