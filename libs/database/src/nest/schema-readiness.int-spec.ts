import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { HealthModule, ReadinessChecks } from '@erp/observability';
import { migrateDatabase } from '../migrations/run-migrations';
import { CreateWidgets1700000000001 } from '../test-support/1700000000001-create-widgets.migration';
import { createScratchDatabase } from '../test-support/scratch-database';
import { Widget } from '../test-support/widget.entity';
import { DatabaseModule } from './database.module';
import { SchemaReadiness } from './schema-readiness';

class AddWidgetSize1700000000002 implements MigrationInterface {
  name = 'AddWidgetSize1700000000002';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE widgets ADD COLUMN size integer`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE widgets DROP COLUMN size`);
  }
}

class DropWidgetName1700000000003 implements MigrationInterface {
  name = 'DropWidgetName1700000000003';
  readonly phase = 'contract';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE widgets DROP COLUMN name`);
  }
  async down(): Promise<void> {
    // history
  }
}

describe('the schema gate: readiness waits for the expand migrations of the code', () => {
  it('is down, naming what is missing, until the expand step ran; a pending contract migration does not hold it', async () => {
    const database = await createScratchDatabase('schema_gate');
    const migrations = [CreateWidgets1700000000001, AddWidgetSize1700000000002, DropWidgetName1700000000003];
    const config = { url: database.url, entities: [Widget], migrations, applicationName: 'schema-gate-test' };
    await migrateDatabase({ ...config, migrations: [CreateWidgets1700000000001] });

    @Module({ imports: [DatabaseModule.forRoot(config), HealthModule.forRoot()] })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      // Registered with /health/ready's checks, and what it answers there.
      expect(app.get(ReadinessChecks).all()).toHaveLength(1);
      const readiness = () => app.get(SchemaReadiness).check();
      expect((await readiness())['schema']).toEqual({ status: 'down', message: 'expand migrations not applied yet', missing: ['AddWidgetSize1700000000002'] });
      await migrateDatabase(config, { run: 'expand' });
      expect((await readiness())['schema']).toEqual({ status: 'up' });
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
