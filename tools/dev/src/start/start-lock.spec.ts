import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlreadyRunningError, runningStart, takeStartLock } from './start-lock';

describe('the data directory lock of npm start', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'start-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('notes the pid and URL, and gives the directory back on release', async () => {
    const release = await takeStartLock(dir, 'http://localhost:3000');
    expect(JSON.parse(await readFile(join(dir, 'npm-start.lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      url: 'http://localhost:3000',
    });
    await release();
    expect(await runningStart(dir)).toBeUndefined();
    await (
      await takeStartLock(dir, 'http://localhost:3000')
    )();
  });

  it('takes over a lock whose process is gone, or is torn', async () => {
    await writeFile(
      join(dir, 'npm-start.lock'),
      JSON.stringify({ pid: 2 ** 22 + 1, url: 'http://localhost:3000', startedAt: '' }),
    );
    await (
      await takeStartLock(dir, 'http://localhost:3001')
    )();
    await writeFile(join(dir, 'npm-start.lock'), '{"pid": 12');
    await (
      await takeStartLock(dir, 'http://localhost:3001')
    )();
  });

  it('refuses while a live npm start holds it, naming its pid and URL', async () => {
    // A live process whose command line is an npm start's.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'tools/dev/src/start.ts'], {
      stdio: 'ignore',
    });
    try {
      await writeFile(
        join(dir, 'npm-start.lock'),
        JSON.stringify({ pid: holder.pid, url: 'http://localhost:3000', startedAt: '' }),
      );
      await expect(takeStartLock(dir, 'http://localhost:3001')).rejects.toThrow(AlreadyRunningError);
      await expect(takeStartLock(dir, 'http://localhost:3001')).rejects.toThrow(
        `(pid ${holder.pid}, http://localhost:3000)`,
      );
      expect(await runningStart(dir)).toMatchObject({ pid: holder.pid });
    } finally {
      holder.kill();
    }
  });
});
