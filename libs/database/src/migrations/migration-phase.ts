import type { ClassReference } from '../data-source/create-data-source';

/**
 * When a migration may run during a rolling upgrade (docs/migrations.md):
 * - `expand`: before the new release's pods start, while the previous release serves on the
 *   result. It adds (tables, columns, indexes CONCURRENTLY, views, functions, NOT VALID
 *   constraints) and must leave everything the previous release reads and writes working.
 * - `contract`: only once every replica runs the new release, as a step of its own. It takes away
 *   or tightens what the previous release still uses (drops, revokes, constraints it would break,
 *   backfills the new release needs before it can trust a value).
 * A migration class declares `readonly phase = 'contract'`; without it, it is `expand`.
 */
export type MigrationPhase = 'expand' | 'contract';

/**
 * What a migration run applies: `expand`, the expand migrations only (before the rollout);
 * `all`, every pending one in order (the contract step after the rollout, and a new database).
 */
export type MigrationRun = 'expand' | 'all';

/** The phase a migration class declares (an instance property, default `expand`). */
export function phaseOf(migration: ClassReference): MigrationPhase {
  const instance = new (migration as new () => { phase?: unknown })();
  return instance.phase === 'contract' ? 'contract' : 'expand';
}

/** The migrations a run applies: `expand` leaves the contract ones for the contract step. */
export function migrationsFor(run: MigrationRun, migrations: ClassReference[]): ClassReference[] {
  return run === 'expand' ? migrations.filter((migration) => phaseOf(migration) === 'expand') : migrations;
}

/** The class names TypeORM records for migrations (its `name`, or the class name). */
export function migrationName(migration: ClassReference): string {
  const instance = new (migration as new () => { name?: unknown })();
  return typeof instance.name === 'string' ? instance.name : (migration as { name: string }).name;
}
