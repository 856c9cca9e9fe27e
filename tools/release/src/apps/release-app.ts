import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../releases';
import { affectedApps, commitsForApp } from './app-changes';
import { appChangelogFile, isReleasedApp, nextVersion, readAppRelease, RELEASED_APPS, type ReleasedApp, writeAppRelease } from './app-release';
import { changelogSection, prependChangelog } from './changelog';

// Releases one app (docs/releasing-one-service.md), in the order a release happens:
//   npm run release:app -- version <app> --bump major|minor|patch|x.y.z [--date YYYY-MM-DD]
//     its version (apps/<app>/release.json) and a changelog section; commit, build and push its image
//   npm run release:app -- image <app> --digest sha256:<64 hex>
//     its production image (tag = its version, the digest the registry answered) and the manifests
//   npm run release:app -- affected
//     the apps changed since their own last release (nx affected), which a release must include

const APPS = RELEASED_APPS.join('|');
const USAGE = `usage: npm run release:app -- version <${APPS}> --bump major|minor|patch|x.y.z [--date YYYY-MM-DD]
       npm run release:app -- image <${APPS}> --digest sha256:<64 hex>
       npm run release:app -- affected`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
}

const PROD_IMAGES = join(REPOSITORY_ROOT, 'tools', 'deploy-check', 'releases', 'prod.json');

/** The app's production image: its tag is its version, its digest what the registry answered. */
function setProductionImage(app: string, tag: string, digest: string): void {
  const images = JSON.parse(readFileSync(PROD_IMAGES, 'utf8')) as Record<string, { repository: string; tag: string; digest: string }>;
  const image = images[app];
  if (!image) throw new Error(`${PROD_IMAGES} has no entry for ${app}`);
  images[app] = { ...image, tag, digest };
  writeFileSync(PROD_IMAGES, `${JSON.stringify(images, null, 2)}\n`);
}

async function releaseVersion(app: ReleasedApp, args: string[]): Promise<void> {
  const bump = option(args, 'bump');
  if (!bump) throw new Error(USAGE);
  const current = readAppRelease(app);
  const version = nextVersion(current.version, bump);
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY_ROOT, encoding: 'utf8' }).trim();
  const date = option(args, 'date') ?? new Date().toISOString().slice(0, 10);
  const commits = await commitsForApp(app, current.commit);
  writeAppRelease(app, { version, commit: head, date });
  prependChangelog(appChangelogFile(app), app, changelogSection(version, date, commits));
  process.stdout.write(`${app} ${current.version} -> ${version}: ${commits.length} commit(s) since ${current.commit.slice(0, 7)}\n`);
}

function releaseImage(app: ReleasedApp, args: string[]): void {
  const digest = option(args, 'digest');
  if (!digest || !/^sha256:[0-9a-f]{64}$/.test(digest)) throw new Error(`--digest must be sha256:<64 hex>\n${USAGE}`);
  const { version } = readAppRelease(app);
  setProductionImage(app, version, digest);
  // The manifests are generated from the image setting: never edited by hand.
  execFileSync(process.execPath, ['-r', '@swc-node/register', join('tools', 'deploy-check', 'src', 'generate.ts')], { cwd: REPOSITORY_ROOT, stdio: 'inherit' });
  process.stdout.write(`${app} ${version} @ ${digest}: tools/deploy-check/releases/prod.json and the generated manifests updated\n`);
}

function listAffected(): void {
  const byBase = new Map<string, ReleasedApp[]>();
  for (const app of RELEASED_APPS) byBase.set(readAppRelease(app).commit, [...(byBase.get(readAppRelease(app).commit) ?? []), app]);
  for (const [base, apps] of byBase) {
    const affected = affectedApps(base);
    for (const app of apps) process.stdout.write(`${app} ${readAppRelease(app).version}: ${affected.includes(app) ? 'changed since its release, release it' : 'unchanged'}\n`);
  }
}

async function main([command, app, ...args]: string[]): Promise<void> {
  if (command === 'affected') return listAffected();
  if (!app || !isReleasedApp(app)) throw new Error(USAGE);
  if (command === 'version') return releaseVersion(app, args);
  if (command === 'image') return releaseImage(app, args);
  throw new Error(USAGE);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
