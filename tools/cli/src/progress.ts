import { Presets, SingleBar } from 'cli-progress';

/** Progress of one transfer; a no-op unless stderr is a terminal (scripts and pipes stay quiet). */
export interface Progress {
  /** The count so far and, once known, the total (v1 lists learn it from the first page). */
  update(value: number, total?: number): void;
  stop(): void;
}

export type ProgressUnit = 'records' | 'bytes';

const QUIET: Progress = { update: () => undefined, stop: () => undefined };

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Records or bytes per second so far, for the bar's `{rate}` field. */
export function formatRate(value: number, elapsedMs: number, unit: ProgressUnit): string {
  const perSecond = elapsedMs > 0 ? (value * 1000) / elapsedMs : 0;
  return unit === 'bytes' ? `${formatBytes(Math.round(perSecond))}/s` : `${Math.round(perSecond)} records/s`;
}

/**
 * A cli-progress bar on stderr: `label |bar| value/total unit | rate | elapsed`. Only on a TTY:
 * stdout may carry the data itself and logs or pipes must not fill with carriage returns.
 */
export function startProgress(
  label: string,
  unit: ProgressUnit,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): Progress {
  if (!stream.isTTY) return QUIET;
  const startedAt = now();
  const bar = new SingleBar(
    {
      stream,
      format: `${label} |{bar}| {shown}/{shownTotal} ${unit === 'bytes' ? '' : 'records '}| {rate} | {duration_formatted}`,
      hideCursor: true,
      clearOnComplete: false,
      // The total of a v1 list is unknown until the first page arrives.
      etaBuffer: 20,
      emptyOnZero: true,
    },
    Presets.shades_classic,
  );
  const show = (value: number) => (unit === 'bytes' ? formatBytes(value) : String(value));
  let total = 0;
  const payload = (value: number) => ({
    shown: show(value),
    shownTotal: total > 0 ? show(total) : '?',
    rate: formatRate(value, now() - startedAt, unit),
  });
  bar.start(0, 0, payload(0));
  return {
    update(value, newTotal) {
      if (newTotal !== undefined && newTotal !== total) {
        total = newTotal;
        bar.setTotal(newTotal);
      }
      bar.update(value, payload(value));
    },
    stop() {
      bar.stop();
    },
  };
}
