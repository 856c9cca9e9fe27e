import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root (tools/release/src -> ../../..). */
export const REPOSITORY_ROOT = resolve(__dirname, '..', '..', '..');
/** The release line: every release's version and commit, newest last (docs/releases.md). */
export const RELEASES_FILE = join(REPOSITORY_ROOT, 'releases', 'releases.json');

/** One release of the repository: a version and the commit it was cut from. */
export interface Release {
  /** Semantic version of the repository as a whole (each app has its own too: issue 39). */
  version: string;
  /** The full commit id; a clone of the branch carries it (tags do not travel, this file does). */
  commit: string;
  /** ISO date the release was cut. */
  date: string;
  title: string;
}

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
const COMMIT = /^[0-9a-f]{40}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The problems of a release line, for its test: well-formed entries, versions rising, no commit twice. */
export function releaseLineProblems(line: unknown): string[] {
  const releases = (line as { releases?: unknown })?.releases;
  if (!Array.isArray(releases) || releases.length === 0) return ['releases must be a non-empty array'];
  const problems: string[] = [];
  releases.forEach((release: Partial<Release>, i) => {
    if (typeof release.version !== 'string' || !VERSION.test(release.version)) problems.push(`releases[${i}].version must be x.y.z`);
    if (typeof release.commit !== 'string' || !COMMIT.test(release.commit)) problems.push(`releases[${i}].commit must be a full commit id`);
    if (typeof release.date !== 'string' || !DATE.test(release.date)) problems.push(`releases[${i}].date must be YYYY-MM-DD`);
    if (typeof release.title !== 'string' || release.title.trim() === '') problems.push(`releases[${i}].title is required`);
    const previous = releases[i - 1] as Partial<Release> | undefined;
    if (previous && typeof previous.version === 'string' && typeof release.version === 'string' && compareVersions(previous.version, release.version) >= 0) {
      problems.push(`releases[${i}].version must be above ${previous.version}`);
    }
  });
  const commits = releases.map((r: Partial<Release>) => r.commit);
  if (new Set(commits).size !== commits.length) problems.push('a commit is released twice');
  return problems;
}

function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Every release, oldest first. */
export function releases(file = RELEASES_FILE): Release[] {
  const line: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const problems = releaseLineProblems(line);
  if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`);
  return (line as { releases: Release[] }).releases;
}

/** The release the working tree will be deployed over: the last one recorded. */
export function previousRelease(file = RELEASES_FILE): Release {
  const all = releases(file);
  return all[all.length - 1] as Release;
}
