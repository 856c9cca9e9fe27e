import { AdvancedConsoleLogger, type Logger, type LoggerOptions, type QueryRunner } from 'typeorm';

/** TypeORM's line for a migration whose `up` threw (MigrationExecutor), and for the run it ended. */
const FAILED_MIGRATION = /^Migrations? (?:"[^"]*" )?failed, error: /;

/**
 * TypeORM's console logger for the migration runs, less its "Migration ... failed" lines. A
 * migration that could not take its locks in time is rolled back and run again (`runMigrations`),
 * which says so at info ("will retry"); printed as a failure, a run that then succeeds reads as an
 * error in every log. A migration that finally fails is reported by the runner's thrown error,
 * which names it (`migrateDatabase`). Everything else goes to TypeORM's own logger unchanged.
 */
export class MigrationRunLogger implements Logger {
  private readonly console: AdvancedConsoleLogger;

  constructor(options?: LoggerOptions) {
    this.console = new AdvancedConsoleLogger(options);
  }

  logMigration(message: string, queryRunner?: QueryRunner): void {
    if (FAILED_MIGRATION.test(message)) return;
    this.console.logMigration(message, queryRunner);
  }

  logQuery(query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    this.console.logQuery(query, parameters, queryRunner);
  }

  logQueryError(error: string | Error, query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    this.console.logQueryError(error instanceof Error ? error.message : error, query, parameters, queryRunner);
  }

  logQuerySlow(time: number, query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    this.console.logQuerySlow(time, query, parameters, queryRunner);
  }

  logSchemaBuild(message: string, queryRunner?: QueryRunner): void {
    this.console.logSchemaBuild(message, queryRunner);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown, queryRunner?: QueryRunner): void {
    this.console.log(level, message, queryRunner);
  }
}
