import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClassReference, migrateDatabase, migrationName, phaseOf, type MigrationPhase } from '@erp/database';
import { round } from './fill-tables';
import type { WriteSample, WriterOptions, Writers } from './writers';

/** What one migration did to the service's writes. */
export interface MigrationFigure {
  name: string;
  phase: MigrationPhase;
  /** In the previous release (its file existed at the release's commit). */
  released: boolean;
  /** Run with the writers (else only applied, on the way to the ones measured). */
  measured: boolean;
  /** Wall time of `migrateDatabase` for it, retries and their pauses included. */
  seconds: number;
  /** The kinds of write that ran beside it (none while the tables they need do not exist yet). */
  writeKinds: string[];
  /** Writes made while it ran. */
  writes: number;
  /** The longest write transaction, BEGIN to COMMIT answered (its own run time included); null without writes. */
  longestWriteMs: number | null;
  /** Writes that took longer than 1 s. */
  writesOver1s: number;
  /** Writes that failed, with their first errors. */
  failedWrites: number;
  errors: string[];
  /** Times the runner rolled it back after its lock timeout and tried again (a log line each). */
  retries: number;
}

export interface MigrationStep {
  url: string;
  /** The service's migrations up to and including the one to run (the earlier ones are applied). */
  migrations: ClassReference[];
  released: boolean;
  /** Writers to run beside it, or none (applied only). */
  writers?: { pool: Writers; options: WriterOptions };
  log: (line: string) => void;
}

/** Writers start this long before the migration, so that writes are in flight when it takes its locks. */
const WRITERS_LEAD_MS = 200;
const BOUND_MS = 1_000;

/**
 * Applies the last migration of `step.migrations` with `migrateDatabase`, what the Jobs run in
 * production (the runner's lock timeout and retries included), while the writers write, and
 * returns what the writes waited.
 */
export async function measureMigration(step: MigrationStep): Promise<MigrationFigure> {
  const migration = step.migrations[step.migrations.length - 1];
  const name = migrationName(migration);
  const stop = step.writers ? step.writers.pool.start(step.writers.options) : async (): Promise<WriteSample[]> => [];
  if (step.writers) await sleep(WRITERS_LEAD_MS);
  let retries = 0;
  const started = performance.now();
  let samples: WriteSample[];
  try {
    await migrateDatabase(
      { url: step.url, entities: [], migrations: step.migrations, applicationName: 'bench-migrations' },
      {
        run: 'all',
        log: (line) => {
          retries++;
          step.log(`${name}: ${line}`);
        },
      },
    );
  } finally {
    samples = await stop();
  }
  const seconds = round((performance.now() - started) / 1000);
  const failed = samples.filter((sample) => sample.error);
  return {
    name,
    phase: phaseOf(migration),
    released: step.released,
    measured: step.writers !== undefined,
    seconds,
    writeKinds: step.writers?.options.kinds.map((kind) => kind.name) ?? [],
    writes: samples.length,
    longestWriteMs: samples.length === 0 ? null : round(samples.reduce((longest, sample) => Math.max(longest, sample.ms), 0), 1),
    writesOver1s: samples.filter((sample) => sample.ms > BOUND_MS).length,
    failedWrites: failed.length,
    errors: [...new Set(failed.map((sample) => `${sample.kind}: ${sample.error}`))].slice(0, 3),
    retries,
  };
}
