import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';

/** A port `npm start` will listen on, and the variable that moves it. */
export interface PlannedPort {
  port: number;
  host: string;
  /** What listens there, e.g. `the gateway`, `customers-v1`. */
  what: string;
  variable: string;
}

export class PortsTakenError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/**
 * Fails with one line per port that cannot be listened on, naming the port, the process that holds
 * it where the system tells (pid-port: `ss`, `lsof` or `netstat`), and the variable that moves it.
 * Run before anything starts, so a taken port stops `npm start` before a migration or a service
 * begins instead of surfacing as a service that "exited before it was ready".
 */
export async function assertPortsFree(planned: PlannedPort[]): Promise<void> {
  const taken: PlannedPort[] = [];
  for (const entry of planned) if (!(await canListen(entry.port, entry.host))) taken.push(entry);
  if (taken.length === 0) return;
  const lines = await Promise.all(
    taken.map(async ({ port, what, variable }) => {
      const holder = await portHolder(port);
      return `port ${port} (${what}) is in use${holder ? ` by ${holder}` : ''}: stop that, or set ${variable} to another port`;
    }),
  );
  throw new PortsTakenError(lines);
}

function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

const execFileAsync = promisify(execFile);

/** "pid 1234 (python3 -m http.server 3000)", or undefined where the system does not say. */
async function portHolder(port: number): Promise<string | undefined> {
  try {
    const { portToPid } = await import('pid-port');
    const pid = await portToPid({ port, host: '*' });
    if (!pid) return undefined;
    const command = await execFileAsync('ps', ['-p', String(pid), '-o', 'args=']).then(
      ({ stdout }) => stdout.trim(),
      () => '',
    );
    return command
      ? `pid ${pid} (${command.length > 80 ? `${command.slice(0, 77)}...` : command})`
      : `pid ${pid}`;
  } catch {
    // No ss, lsof or netstat, or not allowed to see other users' sockets.
    return undefined;
  }
}
