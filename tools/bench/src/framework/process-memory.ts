import { readFileSync } from 'node:fs';

/** Resident memory of one process, in MiB: the peak seen by polling, and the kernel's high-water mark. */
export interface ProcessMemory {
  pid: number;
  /** Highest VmRSS seen while sampling (the peak during the measured window). */
  peakRssMiB: number | null;
  /** VmHWM at the end: the peak since the process started (includes start-up and earlier scenarios). */
  lifetimePeakRssMiB: number | null;
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null; // not Linux, or the process is gone
  }
}

/**
 * Polls /proc/<pid>/status of each named process every `intervalMs` until stopped and returns
 * each one's peak RSS over that window. Null where /proc is not available.
 */
export function sampleMemory(pids: Record<string, number>, intervalMs = 100): { stop(): Record<string, ProcessMemory> } {
  const peaks: Record<string, number | null> = {};
  const poll = () => {
    for (const [name, pid] of Object.entries(pids)) {
      const rss = statusField(pid, 'VmRSS');
      if (rss !== null) peaks[name] = Math.max(peaks[name] ?? 0, rss);
    }
  };
  poll();
  const timer = setInterval(poll, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      poll();
      return Object.fromEntries(
        Object.entries(pids).map(([name, pid]) => [
          name,
          { pid, peakRssMiB: peaks[name] ?? null, lifetimePeakRssMiB: statusField(pid, 'VmHWM') },
        ]),
      );
    },
  };
}

/** USER_HZ on Linux: the unit of the CPU times in /proc/<pid>/stat. */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The fields of /proc/<pid>/stat after the command (which may hold spaces), so field 3 of proc(5)
 * is index 0; null where /proc is not available or the process is gone.
 */
export function procStatFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) each named process has used so far, in ms, from /proc/<pid>/stat;
 * null where /proc is not available. Differences over a load run give CPU per request.
 */
export function cpuTimes(pids: Record<string, number>): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      const fields = procStatFields(pid);
      return [name, fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND : null];
    }),
  );
}
