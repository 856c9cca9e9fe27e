import { execFileSync } from 'node:child_process';
import { previousRelease, releaseLineProblems, releases, REPOSITORY_ROOT } from './releases';

describe('the release line (releases/releases.json)', () => {
  it('is well formed, with versions rising', () => {
    expect(releases().length).toBeGreaterThan(0);
  });

  it("names commits of this branch's history, older than the working tree", () => {
    for (const release of releases()) {
      // `git merge-base --is-ancestor` exits 0 when the release's commit is in HEAD's history.
      expect(() => execFileSync('git', ['merge-base', '--is-ancestor', release.commit, 'HEAD'], { cwd: REPOSITORY_ROOT, stdio: 'pipe' })).not.toThrow();
    }
  });

  it('has the previous release last', () => {
    const all = releases();
    expect(previousRelease()).toEqual(all[all.length - 1]);
  });

  it.each([
    [{ releases: [] }, 'releases must be a non-empty array'],
    [{ releases: [{ version: '1.0', commit: 'c80fcc8', date: '27.11.2026', title: '' }] }, 'releases[0].version must be x.y.z'],
    [{ releases: [{ version: '1.0.0', commit: 'c80fcc8', date: '2026-11-27', title: 'x' }] }, 'releases[0].commit must be a full commit id'],
    [
      { releases: [{ version: '1.1.0', commit: 'a'.repeat(40), date: '2026-11-27', title: 'x' }, { version: '1.0.9', commit: 'b'.repeat(40), date: '2026-11-28', title: 'y' }] },
      'releases[1].version must be above 1.1.0',
    ],
    [
      { releases: [{ version: '1.0.0', commit: 'a'.repeat(40), date: '2026-11-27', title: 'x' }, { version: '1.0.1', commit: 'a'.repeat(40), date: '2026-11-28', title: 'y' }] },
      'a commit is released twice',
    ],
  ])('refuses a broken line: %j', (line, problem) => {
    expect(releaseLineProblems(line)).toContain(problem);
  });
});
