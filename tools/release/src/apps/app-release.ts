import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../releases';

/** The apps released one by one, each with its own version: the services and the gateway. */
export const RELEASED_APPS = ['customers-v1', 'supplier-invoices-v1', 'attachments-v1', 'sales-orders-v3', 'webhook-publisher', 'api-gateway'] as const;
export type ReleasedApp = (typeof RELEASED_APPS)[number];

/** An app's current release: `apps/<app>/release.json`, changed only by `npm run release:app`. */
export interface AppRelease {
  version: string;
  /** The commit the release was cut from: its changelog and `nx affected` start after it. */
  commit: string;
  date: string;
}

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export const appReleaseFile = (app: string, root = REPOSITORY_ROOT) => join(root, 'apps', app, 'release.json');
export const appChangelogFile = (app: string, root = REPOSITORY_ROOT) => join(root, 'apps', app, 'CHANGELOG.md');

export function isReleasedApp(name: string): name is ReleasedApp {
  return (RELEASED_APPS as readonly string[]).includes(name);
}

export function readAppRelease(app: ReleasedApp, root = REPOSITORY_ROOT): AppRelease {
  const file = appReleaseFile(app, root);
  if (!existsSync(file)) throw new Error(`${file} is missing: every released app has its version there`);
  const release = JSON.parse(readFileSync(file, 'utf8')) as AppRelease;
  if (!VERSION.test(release.version)) throw new Error(`${file}: version ${release.version} is not x.y.z`);
  if (!/^[0-9a-f]{40}$/.test(release.commit)) throw new Error(`${file}: commit must be a full commit id`);
  return release;
}

export function writeAppRelease(app: ReleasedApp, release: AppRelease, root = REPOSITORY_ROOT): void {
  writeFileSync(appReleaseFile(app, root), `${JSON.stringify(release, null, 2)}\n`);
}

export type Bump = 'major' | 'minor' | 'patch';

/** The next version: a bump of the current one, or an explicit x.y.z above it. */
export function nextVersion(current: string, bump: Bump | string): string {
  const [major, minor, patch] = current.split('.').map(Number) as [number, number, number];
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
  if (!VERSION.test(bump)) throw new Error(`--bump takes major, minor, patch or x.y.z, not ${bump}`);
  const [x, y, z] = bump.split('.').map(Number) as [number, number, number];
  if (x * 1e12 + y * 1e6 + z <= major * 1e12 + minor * 1e6 + patch) throw new Error(`${bump} is not above ${current}`);
  return bump;
}
