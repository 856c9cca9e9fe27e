import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Release, REPOSITORY_ROOT } from './releases';

const run = promisify(execFile);

/** A release built from the repository's own history: a git worktree with its own install. */
export interface ReleaseCheckout {
  version: string;
  commit: string;
  /** The worktree: the release's apps, libs and node_modules. */
  root: string;
}

/**
 * The previous release as a platform team would run it: its commit checked out in a worktree of
 * this repository (the branch carries the commit: releases/releases.json names it) and installed with
 * its own lockfile (`npm ci`), under `.data/releases/<version>`. Kept between runs on one machine;
 * rebuilt when the worktree is at another commit or its install is missing. Used by the rolling
 * upgrade suite (apps/reliability) and the upgrade of `npm start`'s data (tools/dev), which may
 * run at once: one makes the checkout while the other waits for it (`withCheckoutLock`).
 */
export async function checkoutRelease(release: Release, log: (line: string) => void): Promise<ReleaseCheckout> {
  const root = join(REPOSITORY_ROOT, '.data', 'releases', release.version);
  return withCheckoutLock(root, () => checkOut(release, root, log));
}

async function checkOut(release: Release, root: string, log: (line: string) => void): Promise<ReleaseCheckout> {
  const installed = existsSync(join(root, 'node_modules', '.package-lock.json'));
  const head = installed ? (await run('git', ['-C', root, 'rev-parse', 'HEAD']).catch(() => ({ stdout: '' }))).stdout.trim() : '';
  if (head !== release.commit) {
    log(`checking out release ${release.version} (${release.commit.slice(0, 7)}) in ${root}`);
    await run('git', ['-C', REPOSITORY_ROOT, 'worktree', 'remove', '--force', root]).catch(() => undefined);
    await run('git', ['-C', REPOSITORY_ROOT, 'worktree', 'prune']);
    await run('git', ['-C', REPOSITORY_ROOT, 'worktree', 'add', '--detach', '--force', root, release.commit]);
    log(`installing release ${release.version} with its own lockfile (npm ci)`);
    // Its own install, as its image would have: no package of the working tree leaks into it.
    await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
  }
  return { version: release.version, commit: release.commit, root };
}

/**
 * Runs `work` holding `<root>.lock`, a directory made exclusively holding the owner's pid: another
 * process making the same checkout waits for it, and a lock whose process is gone (killed in the
 * middle of an install) is taken over. A checkout is minutes of git and npm, so waiting is right.
 */
async function withCheckoutLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const lock = `${root}.lock`;
  await mkdir(dirname(lock), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
    const made = await stat(lock).then((info) => info.mtimeMs, () => Date.now());
    // Its owner gone, or never written a minute after it was made (killed between the two).
    const stale = Number.isInteger(owner) && owner > 0 ? !isAlive(owner) : Date.now() - made > 60_000;
    if (stale) await rm(lock, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    await writeFile(join(lock, 'pid'), String(process.pid));
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
