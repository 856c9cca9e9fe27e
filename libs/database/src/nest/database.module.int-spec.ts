import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectDataSource, InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource, Repository } from 'typeorm';
import { metricsRegistry } from '@erp/observability';

import { migrateDatabase } from '../migrations/run-migrations';
import { CreateWidgets1700000000001 } from '../test-support/1700000000001-create-widgets.migration';
import { createScratchDatabase } from '../test-support/scratch-database';
import { Widget } from '../test-support/widget.entity';
import { DatabaseModule } from './database.module';

@Injectable()
class WidgetsService {
  constructor(
    @InjectRepository(Widget) private readonly widgets: Repository<Widget>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async add(name: string): Promise<void> {
    await this.widgets.insert({ companyId: 7, name });
  }

  async names(): Promise<string[]> {
    const rows = await this.dataSource.query<{ name: string }[]>(
      'SELECT name FROM widgets WHERE company_id = $1 ORDER BY name',
      [7],
    );
    return rows.map((row) => row.name);
  }

  applicationName(): Promise<{ application_name: string }[]> {
    return this.dataSource.query('SHOW application_name');
  }
}

@Module({ imports: [TypeOrmModule.forFeature([Widget])], providers: [WidgetsService] })
class WidgetsModule {}

describe('DatabaseModule', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;

  beforeAll(async () => {
    database = await createScratchDatabase('nest');
    await migrateDatabase({
      url: database.url,
      entities: [Widget],
      migrations: [CreateWidgets1700000000001],
      applicationName: 'database-lib-test',
    });
  });

  afterAll(async () => {
    await database.drop();
  });

  it('gives feature modules repositories and the DataSource, named after the application', async () => {
    @Module({
      imports: [
        DatabaseModule.forRoot({
          url: database.url,
          entities: [Widget],
          migrations: [CreateWidgets1700000000001],
          applicationName: 'widgets-test',
        }),
        WidgetsModule,
      ],
    })
    class AppModule {}

    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const service = app.get(WidgetsService);
      await service.add('b');
      await service.add('a');

      expect(await service.names()).toEqual(['a', 'b']);
      expect(await service.applicationName()).toEqual([{ application_name: 'widgets-test' }]);
    } finally {
      await app.close();
    }
  });

  it('does not run migrations on start', async () => {
    const empty = await createScratchDatabase('nest_empty');
    @Module({
      imports: [
        DatabaseModule.forRoot({
          url: empty.url,
          entities: [Widget],
          migrations: [CreateWidgets1700000000001],
          applicationName: 'widgets-test',
        }),
      ],
    })
    class AppModule {}

    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const rows = await app.get(DataSource).query(`SELECT to_regclass('widgets') AS t`);
      expect(rows).toEqual([{ t: null }]);
    } finally {
      await app.close();
      await empty.drop();
    }
  });

  it("reports its pool's connections on /metrics while they are used, and stops reporting at close", async () => {
    @Module({
      imports: [
        DatabaseModule.forRoot({
          url: database.url,
          entities: [Widget],
          migrations: [],
          applicationName: 'pool-metrics-test',
          poolSize: 2,
        }),
      ],
    })
    class AppModule {}

    const sample = async (series: string) => {
      const line = (await metricsRegistry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const dataSource = app.get(DataSource);
    // The queries wait for a lock this session holds until the test has looked: they stay busy as
    // long as the look takes, however slow the machine.
    const blocker = new Client(database.url);
    await blocker.connect();
    const LOCK = 4_711_001;
    let released = false;
    const release = async () => {
      if (!released) await blocker.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      released = true;
    };
    try {
      await blocker.query('SELECT pg_advisory_lock($1)', [LOCK]);
      // Two waiting queries take both connections; a third waits in the pool's queue.
      const held = [1, 2, 3].map(() => dataSource.query('SELECT pg_advisory_xact_lock($1)', [LOCK]));
      const deadline = Date.now() + 120_000;
      const used = () => sample('db_client_connections_usage{pool="pool-metrics-test",state="used"}');
      const pending = () => sample('db_client_connections_pending_requests{pool="pool-metrics-test"}');
      while ((await used()) !== 2 || (await pending()) !== 1) {
        if (Date.now() > deadline) throw new Error('timed out waiting for both connections used and one query queued');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await sample('db_client_connections_max{pool="pool-metrics-test"}')).toBe(2);
      expect(await used()).toBe(2);
      expect(await pending()).toBe(1);
      await release();
      await Promise.all(held);
      expect(await used()).toBe(0);
      expect(await pending()).toBe(0);
    } finally {
      await release().catch(() => undefined);
      await blocker.end();
      await app.close();
    }
    expect(await sample('db_client_connections_max{pool="pool-metrics-test"}')).toBeUndefined();
  });

  it('fails start-up after its retries when the database is unreachable', async () => {
    @Module({
      imports: [
        DatabaseModule.forRoot({
          url: 'postgres://postgres:x@127.0.0.1:1/none',
          entities: [Widget],
          migrations: [],
          applicationName: 'widgets-test',
          retryAttempts: 2,
          retryDelayMs: 10,
        }),
      ],
    })
    class AppModule {}

    // Its retries and no more: two connects, each refused, then start-up fails with the refusal
    // (shown by counting the connects, not by a wall-clock bound).
    const connects = jest.spyOn(Client.prototype, 'connect');
    try {
      await expect(
        NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false }),
      ).rejects.toThrow(/ECONNREFUSED/);
      expect(connects).toHaveBeenCalledTimes(2);
    } finally {
      connects.mockRestore();
    }
  });
});
