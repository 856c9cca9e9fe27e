import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { CLOCK_TICKS_PER_SECOND, procStatFields } from './process-memory';

/**
 * The pid of the PostgreSQL server (the postmaster) behind `databaseUrl` when it runs on this
 * machine: the parent of the backend that answers. Undefined for a server elsewhere (no such
 * process here, or one that is not `postgres`), or without /proc.
 */
export async function findDatabaseServerPid(databaseUrl: string): Promise<number | undefined> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const parent = Number(procStatFields(rows[0].pid)?.[1]);
    if (!parent) return undefined;
    const command = readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
    return command === 'postgres' || command === 'postmaster' ? parent : undefined;
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

/**
 * CPU ms the whole PostgreSQL server has used so far: the postmaster with the backends and workers
 * it has reaped (cutime, cstime), and those running now. Differences over a load run give the
 * database's CPU per request, which on one machine competes with the services for the same cores.
 * Null without /proc or once the server is gone.
 */
export function databaseServerCpuMs(postmasterPid: number): number | null {
  const own = procStatFields(postmasterPid);
  if (!own) return null;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = procStatFields(entry);
    if (fields && Number(fields[1]) === postmasterPid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
