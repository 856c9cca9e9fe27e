import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnCompiled, spawnTs, type SpawnOptions, type SpawnedProcess } from './child-process';
import { REPO_ROOT } from './paths';
import type { ServiceSpec } from './services';

export type AppBuild = 'source' | 'compiled';

/**
 * How an app's process starts: from its TypeScript (`source`), or from its image build
 * (`compiled`: `dist/apps/<app>/main.js`, which must exist; the error names the command that makes it).
 */
export function appLauncher(build: AppBuild) {
  // `name`: the process's own (a second replica is `customers-v1#2`); the app's by default.
  return (app: ServiceSpec, env: NodeJS.ProcessEnv, options: SpawnOptions, name = app.name): SpawnedProcess => {
    if (build === 'source') return spawnTs(name, `${app.dir}/src/main.ts`, env, options);
    const entry = `dist/${app.dir}/main.js`;
    if (!existsSync(join(REPO_ROOT, entry))) throw new Error(`${entry} is missing: run \`npx nx build ${app.name}\` first`);
    return spawnCompiled(name, entry, env, options);
  };
}
