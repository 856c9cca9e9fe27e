import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceConfig } from '@erp/bootstrap';
import { deployedApps, REPO_ROOT } from './catalog';
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

  it('builds in stages and runs the output of the build tool tools/build tests', () => {
    expect(instructions.filter((line) => line.startsWith('FROM '))).toHaveLength(3);
    expect(instructions).toContain('RUN npm run build -- "$APP"');
    expect(instructions).toContain('COPY --from=build /src/dist/apps/${APP} ./');
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts.build).toBe(
      'node -r @swc-node/register tools/build/src/main.ts',
    );
    expect(instructions.at(-1)).toBe('CMD ["node", "main.js"]');
  });

  it('installs production dependencies only and runs as a non-root user with a health check', () => {
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    const user = instructions.filter((line) => line.startsWith('USER '));
    expect(user).toEqual(['USER node']);
    expect(instructions.indexOf('USER node')).toBeGreaterThan(
      instructions.findIndex((line) => line.startsWith('FROM ') && line.includes('AS runtime')),
    );
    expect(dockerfile).toMatch(/HEALTHCHECK [\s\S]*\/health\/live/);
  });

  it.each(deployedApps().map((app) => app.name))('has an nx build target for %s', (name) => {
    const project = JSON.parse(readFileSync(join(REPO_ROOT, 'apps', name, 'project.json'), 'utf8'));
    expect(project.targets.build.options.command).toBe(
      `node -r @swc-node/register tools/build/src/main.ts ${name}`,
    );
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
