import type { MigrationFigure } from './measure-migration';
import type { MigrationsLoadResult } from './migrations-load.bench';

/** The bound of issue 38: no write waits longer than this while a migration runs. */
export const WRITE_WAIT_BOUND_MS = 1_000;

export interface MeasuredMigration extends MigrationFigure {
  service: string;
}

/** Every migration that ran beside the writers, with its service. */
export function measuredMigrations(result: MigrationsLoadResult): MeasuredMigration[] {
  return result.services.flatMap((service) => service.migrations.filter((m) => m.measured).map((m) => ({ ...m, service: service.service })));
}

/** The measured migrations during which a write waited longer than the bound, or failed. */
export function migrationsOverBound(result: MigrationsLoadResult, boundMs = WRITE_WAIT_BOUND_MS): MeasuredMigration[] {
  return measuredMigrations(result).filter((m) => (m.longestWriteMs ?? 0) > boundMs || m.failedWrites > 0);
}

/** SQLSTATE of a statement cancelled by its lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * With `lockWaitBoundMs` set: the measured migrations beside which a write waited for a lock
 * longer than the bound (its lock_timeout fired) or failed otherwise. The wall time of writes is
 * not used: on a busy machine it grows with everything else, a lock wait only with the lock.
 */
export function migrationsHoldingWrites(result: MigrationsLoadResult): MeasuredMigration[] {
  return measuredMigrations(result).filter((m) => m.failedWrites > 0);
}

/** Whether a migration's failed writes were lock waits over the bound (and nothing else). */
export function onlyLockWaits(migration: MeasuredMigration): boolean {
  return migration.failedWrites > 0 && migration.errors.every((error) => error.includes(LOCK_NOT_AVAILABLE));
}

/** The migration with the longest write wait among `migrations`, if any had writes. */
export function longestWait(migrations: MeasuredMigration[]): MeasuredMigration | undefined {
  return migrations.reduce<MeasuredMigration | undefined>((longest, m) => ((m.longestWriteMs ?? -1) > (longest?.longestWriteMs ?? -1) ? m : longest), undefined);
}

/** The per-migration table (markdown), then the longest waits since the previous release and overall. */
export function migrationsLoadTable(result: MigrationsLoadResult): string {
  const version = result.previousRelease.version;
  const lines = [
    `| service | migration | phase | in ${version} | s | writes | longest write ms | writes > 1 s | failed | retries |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const service of result.services) {
    if (service.skipped) lines.push(`| ${service.service} | (${service.skipped}) | | | | | | | | |`);
    for (const m of service.migrations.filter((figure) => figure.measured)) {
      const longest = m.longestWriteMs === null ? 'no writes' : (m.longestWriteMs > WRITE_WAIT_BOUND_MS ? `**${m.longestWriteMs}**` : String(m.longestWriteMs));
      const cells = [service.service, m.name, m.phase, m.released ? 'yes' : 'no', m.seconds, m.writes, longest, m.writesOver1s, m.failedWrites, m.retries];
      lines.push(`| ${cells.join(' | ')} |`);
    }
  }
  const measured = measuredMigrations(result);
  const since = longestWait(measured.filter((m) => !m.released));
  const overall = longestWait(measured);
  const line = (label: string, m: MeasuredMigration | undefined) =>
    `${label}: ${m ? `${m.longestWriteMs} ms (${m.service} ${m.name})` : 'none measured'}`;
  lines.push('', line(`Longest write wait, migrations since ${version}`, since), '', line('Longest write wait, every migration measured', overall));
  const over = migrationsOverBound(result);
  lines.push('', `Over ${WRITE_WAIT_BOUND_MS} ms or with failed writes: ${over.length === 0 ? 'none' : over.map((m) => `${m.service} ${m.name}${m.released ? '' : ' (new)'}`).join(', ')}`);
  return lines.join('\n');
}
