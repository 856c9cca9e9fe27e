import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectDataSource, InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';

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

    const started = Date.now();
    await expect(
      NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
