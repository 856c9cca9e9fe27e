import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { type DeployedApp, REPO_ROOT } from './catalog';
import type { Environment } from './environments';

/** One app's image in a release: where it is, its tag for people, its digest for the cluster. */
export interface ReleasedImage {
  repository: string;
  tag: string;
  /** `sha256:` and 64 hex digits: what the pods run, whatever the tag points at later. */
  digest: string;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const TAG = /^[\w][\w.-]{0,127}$/;

/** tools/deploy-check/releases/<name>.json: one entry per app, changed by a release (never generated). */
export const releaseFile = (name: string) =>
  isAbsolute(name) ? name : join(REPO_ROOT, 'tools', 'deploy-check', 'releases', `${name}.json`);

/**
 * The images of a release file, checked: every app has an entry with a repository, a tag and a
 * digest, and no entry names an app that is not deployed. Releasing one service is changing its
 * entry and running `npm run deploy:generate`.
 */
export function readRelease(name: string, apps: DeployedApp[], path = releaseFile(name)): Map<string, ReleasedImage> {
  const entries = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Partial<ReleasedImage>>;
  const problems: string[] = [];
  for (const app of apps) {
    const entry = entries[app.name];
    if (!entry) problems.push(`${app.name}: no entry`);
    else {
      if (typeof entry.repository !== 'string' || entry.repository.length === 0) problems.push(`${app.name}: no repository`);
      if (typeof entry.tag !== 'string' || !TAG.test(entry.tag)) problems.push(`${app.name}: tag ${String(entry.tag)} is not a tag`);
      if (typeof entry.digest !== 'string' || !DIGEST.test(entry.digest))
        problems.push(`${app.name}: digest ${String(entry.digest)} is not sha256:<64 hex>`);
    }
  }
  for (const name of Object.keys(entries)) if (!apps.some((app) => app.name === name)) problems.push(`${name}: not a deployed app`);
  if (problems.length > 0) throw new Error(`${path}:\n  ${problems.join('\n  ')}`);
  return new Map(apps.map((app) => [app.name, entries[app.name] as ReleasedImage]));
}

/** The overlay's `images:` entries (kustomize renders `repository:tag@digest` when both are given). */
export function overlayImages(env: Environment, apps: DeployedApp[], baseImage: (app: string) => string) {
  if ('release' in env.images) {
    const release = readRelease(env.images.release, apps, releaseFile(env.images.release));
    return apps.map((app) => {
      const image = release.get(app.name) as ReleasedImage;
      return { name: baseImage(app.name), newName: image.repository, newTag: image.tag, digest: image.digest };
    });
  }
  const { prefix, tag } = env.images;
  return apps.map((app) => ({ name: baseImage(app.name), newName: `${prefix}${app.name}`, newTag: tag }));
}

/** The image reference an overlay's pods of an app run. */
export function expectedImage(env: Environment, app: DeployedApp, apps: DeployedApp[]): string {
  if ('release' in env.images) {
    const image = readRelease(env.images.release, apps).get(app.name);
    return `${image?.repository}:${image?.tag}@${image?.digest}`;
  }
  return `${env.images.prefix}${app.name}:${env.images.tag}`;
}
