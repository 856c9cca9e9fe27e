import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnCompiled, spawnTs, type SpawnOptions, type SpawnedProcess } from './child-process';
import { REPO_ROOT } from './paths';
import type { ServiceSpec } from './services';

export type AppBuild = 'source' | 'compiled';

/** Which of an app's entry points: the service (`main`), or its migration Job (`migrate`, apps with a database). */
export type AppEntry = 'main' | 'migrate';

/**
 * How an app's process starts: from its TypeScript (`source`), or from its image build
 * (`compiled`: `dist/apps/<app>/<entry>.js`, which must exist; the error names the command that makes it).
 */
export function appLauncher(build: AppBuild) {
  // `name`: the process's own (a second replica is `customers-v1#2`); the app's by default.
  return (app: ServiceSpec, env: NodeJS.ProcessEnv, options: SpawnOptions, name = app.name, entry: AppEntry = 'main'): SpawnedProcess => {
    if (build === 'source') return spawnTs(name, `${app.dir}/src/${entry}.ts`, env, options);
    const file = `dist/${app.dir}/${entry}.js`;
    if (!existsSync(join(REPO_ROOT, file))) throw new Error(`${file} is missing: run \`npx nx build ${app.name}\` first`);
    return spawnCompiled(name, file, env, options);
  };
}
