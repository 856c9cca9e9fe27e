import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceConfig } from '@erp/bootstrap';
import { deployedApps, REPO_ROOT } from './catalog';
import { InternalApiServiceConfig } from '@erp/internal-api';
import { KafkaServiceConfig } from '@erp/messaging';
import { type ConfigClass, configVariables } from './config-variables';
import { generatedFiles, staleFiles } from './generate';

describe('the generated deployment files', () => {
  it('are up to date with the catalog and the config classes (else: npm run deploy:generate)', () => {
    expect(staleFiles(generatedFiles())).toEqual([]);
  });
});

describe('docker/Dockerfile', () => {
  const dockerfile = readFileSync(join(REPO_ROOT, 'docker', 'Dockerfile'), 'utf8');
  const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+\s/.test(line));

  it('builds in stages on Node 24 and runs the output of the Nx build tools/build tests', () => {
    expect(instructions.filter((line) => line.startsWith('FROM '))).toHaveLength(3);
    // Pinned by digest: every stage builds FROM ${NODE_IMAGE}, so all three run the same image.
    expect(instructions.filter((line) => line.startsWith('ARG NODE_IMAGE='))).toEqual([
      expect.stringMatching(/^ARG NODE_IMAGE=node:24\.\d+-bookworm-slim@sha256:[0-9a-f]{64}$/),
    ]);
    expect(instructions.filter((line) => line.startsWith('FROM ')).every((line) => line.startsWith('FROM ${NODE_IMAGE} AS '))).toBe(true);
    expect(instructions).toContain('RUN npx nx build "$APP" --outputStyle=static');
    expect(instructions).toContain('COPY --from=build /src/dist/apps/${APP} ./');
    expect(instructions.at(-1)).toBe('CMD ["node", "main.js"]');
  });

  it("installs only the app's own production dependencies, from the package.json and lockfile its build generates", () => {
    expect(instructions).toContain('COPY --from=build /src/dist/apps/${APP}/package.json /src/dist/apps/${APP}/package-lock.json ./');
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    const user = instructions.filter((line) => line.startsWith('USER '));
    expect(user).toEqual(['USER node']);
    expect(instructions.indexOf('USER node')).toBeGreaterThan(
      instructions.findIndex((line) => line.startsWith('FROM ') && line.includes('AS runtime')),
    );
    expect(dockerfile).toMatch(/HEALTHCHECK [\s\S]*\/health\/live/);
  });

  it("applies the repository's patches (patches/) to the image's dependencies with the locked patch-package", () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8'));
    const version: string = lock.packages['node_modules/patch-package'].version;
    expect(instructions).toContain('COPY --from=build /src/patches ./patches');
    expect(dockerfile).toContain(`npm exec --yes --package=patch-package@${version} -- patch-package --error-on-fail`);
  });

  it.each(deployedApps().map((app) => app.name))('builds %s with the shared webpack configuration (the inferred nx build target)', (name) => {
    const config = readFileSync(join(REPO_ROOT, 'apps', name, 'webpack.config.js'), 'utf8');
    expect(config).toContain("require('../../tools/build/app-webpack-config')");
    const project = JSON.parse(readFileSync(join(REPO_ROOT, 'apps', name, 'project.json'), 'utf8'));
    expect(project.targets?.build).toBeUndefined();
  });
});

/** Variables named in a README, of those given; the file must exist. */
function missingFrom(
  readmePath: string,
  variables: string[],
): { readme: string; exists: boolean; missing: string[] } {
  const path = join(REPO_ROOT, readmePath);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const missing = variables.filter((variable) => !new RegExp(`\\b${variable}\\b`).test(text));
  return { readme: readmePath, exists: existsSync(path), missing };
}

/**
 * Config classes of libs that apps extend, and the README listing the variables each adds. An app
 * README lists only the variables its own class adds; the shared ones are documented once.
 */
const LIB_CONFIGS = new Map<ConfigClass, string>([
  [ServiceConfig, 'libs/bootstrap/README.md'],
  [KafkaServiceConfig as unknown as ConfigClass, 'libs/messaging/README.md'],
  [InternalApiServiceConfig as unknown as ConfigClass, 'libs/internal-api/README.md'],
]);

const parentOf = (cls: ConfigClass) => Object.getPrototypeOf(cls) as ConfigClass;
/** Variables a class adds to its parent's. */
const addedBy = (cls: ConfigClass) => {
  const inherited = cls === ServiceConfig ? [] : configVariables(parentOf(cls));
  return configVariables(cls).filter((variable) => !inherited.includes(variable));
};

describe('the READMEs list every configuration variable', () => {
  it.each([...LIB_CONFIGS].map(([cls, readme]) => [readme, cls] as const))(
    '%s names every variable its config class adds',
    (readme, cls) => {
      expect(missingFrom(readme, addedBy(cls))).toEqual({ readme, exists: true, missing: [] });
    },
  );

  it.each(deployedApps().map((app) => [app.name, app] as const))(
    '%s names every variable it adds',
    (_name, app) => {
      for (let base = parentOf(app.configClass); base !== ServiceConfig; base = parentOf(base)) {
        expect([base.name, LIB_CONFIGS.has(base) ? 'documented' : 'add it to LIB_CONFIGS']).toEqual([
          base.name,
          'documented',
        ]);
      }
      const readme = `${app.dir}/README.md`;
      expect(missingFrom(readme, addedBy(app.configClass))).toEqual({ readme, exists: true, missing: [] });
    },
  );
});
