import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../releases';
import { readAppRelease, RELEASED_APPS } from './app-release';

const dockerfile = readFileSync(join(REPOSITORY_ROOT, 'docker', 'Dockerfile'), 'utf8');
const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+\s/.test(line));
const versionCheck = instructions.find((line) => line.startsWith('RUN test -z "$APP_VERSION"')) ?? '';

/** The build stage's check, run as Docker's shell runs it, in the repository root. */
function check(app: string, version: string): number {
  try {
    execFileSync('sh', ['-c', versionCheck.slice('RUN '.length)], { cwd: REPOSITORY_ROOT, env: { ...process.env, APP: app, APP_VERSION: version }, stdio: 'pipe' });
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe("each app's image carries its own version", () => {
  it('has a version per app in apps/<app>/release.json', () => {
    for (const app of RELEASED_APPS) expect(readAppRelease(app).version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("copies the app's release.json into the image and labels it with APP_VERSION", () => {
    const runtime = instructions.slice(instructions.findIndex((line) => line.includes('AS runtime')));
    expect(runtime).toContain('COPY --from=build /src/apps/${APP}/release.json ./release.json');
    expect(runtime).toContain('LABEL org.opencontainers.image.title="${APP}" org.opencontainers.image.version="${APP_VERSION}"');
    expect(runtime).toContain('ENV APP_VERSION=${APP_VERSION}');
  });

  it("refuses a release build whose APP_VERSION is not the app's version", () => {
    expect(check('customers-v1', readAppRelease('customers-v1').version)).toBe(0);
    expect(check('customers-v1', '9.9.9')).not.toBe(0);
    expect(check('customers-v1', '')).toBe(0); // a development build (compose) passes none
  });
});
