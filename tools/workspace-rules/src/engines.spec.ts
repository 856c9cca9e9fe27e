import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { WORKSPACE_ROOT } from './workspace-projects';

interface LockedPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

/** `npm test` and `npm start` run on the Node the lockfile brings (the `node` dev dependency). */
describe('the runtime the scripts use', () => {
  const rootPackage = JSON.parse(readFileSync(path.join(WORKSPACE_ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(path.join(WORKSPACE_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockedPackage>;
  };

  it('is the Node 24 LTS pinned by the lockfile, not the machine\'s own Node', () => {
    const pinned = lock.packages['node_modules/node']?.version;
    expect(rootPackage.devDependencies['node']).toBe(pinned);
    expect(semver.major(pinned ?? '0.0.0')).toBe(24);
    expect(process.version).toBe(`v${pinned}`);
  });

  it("is inside every locked package's declared engine range", () => {
    const outside = Object.entries(lock.packages).flatMap(([location, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!location || !range) return [];
      return semver.satisfies(process.versions.node, range, { includePrerelease: true }) ? [] : [`${location}@${entry.version}: node ${range}`];
    });
    expect(outside).toEqual([]);
  });
});
