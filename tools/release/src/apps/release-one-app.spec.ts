import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../releases';
import { RELEASED_APPS } from './app-release';

const DIGEST = `sha256:${'ab'.repeat(32)}`;

/**
 * The release of one app, end to end, in a clean clone of this commit (docs/releasing-one-service.md):
 * version and changelog, then its image setting and the generated manifests. Only that app's files
 * change; every other app keeps its version, its image and its manifests.
 */
describe('releasing one app alone, from a clean clone', () => {
  let clone: string;
  const run = (...args: string[]) =>
    execFileSync(process.execPath, ['-r', '@swc-node/register', 'tools/release/src/apps/release-app.ts', ...args], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: clone, encoding: 'utf8' });
  const read = (path: string) => readFileSync(join(clone, path), 'utf8');

  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'erp-release-'));
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPOSITORY_ROOT, encoding: 'utf8' }).trim();
    execFileSync('git', ['clone', '--quiet', '--no-checkout', REPOSITORY_ROOT, clone]);
    git('checkout', '--quiet', head);
    // The clone runs the repository's own tools: its installed packages are this checkout's.
    symlinkSync(join(REPOSITORY_ROOT, 'node_modules'), join(clone, 'node_modules'));
  }, 60_000);

  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it('bumps its version and writes its changelog from the commits that changed it', () => {
    expect(run('version', 'customers-v1', '--bump', 'minor', '--date', '2026-12-01')).toMatch(/customers-v1 1\.0\.0 -> 1\.1\.0/);
    expect(JSON.parse(read('apps/customers-v1/release.json'))).toMatchObject({ version: '1.1.0', date: '2026-12-01' });
    const changelog = read('apps/customers-v1/CHANGELOG.md');
    expect(changelog.indexOf('## 1.1.0 (2026-12-01)')).toBeLessThan(changelog.indexOf('## 1.0.0 (2026-11-27)'));
    // A commit that changed customers-v1 after 1.0.0 (c80fcc8) is listed; one of the README alone is not.
    expect(changelog).toMatch(/customers: name counts as their own module/);
    expect(changelog).not.toMatch(/README: where the cluster-side pieces/);
  }, 120_000);

  it('sets its production image (tag = version, the pushed digest) and regenerates the manifests; nothing else changes', () => {
    run('image', 'customers-v1', '--digest', DIGEST);
    const changed = git('status', '--porcelain').split('\n').filter(Boolean).map((line) => line.slice(3)).sort();
    const generated = changed.filter((path) => path.startsWith('docker/'));
    expect(changed.filter((path) => !generated.includes(path))).toEqual(['apps/customers-v1/CHANGELOG.md', 'apps/customers-v1/release.json', 'tools/deploy-check/releases/prod.json']);
    // The prod overlay (and its migration-contract step, which runs the same images) among the generated files.
    expect(generated).toContain('docker/kubernetes/overlays/prod/kustomization.yaml');
    const images = JSON.parse(read('tools/deploy-check/releases/prod.json')) as Record<string, { tag: string; digest: string }>;
    expect(images['customers-v1']).toMatchObject({ tag: '1.1.0', digest: DIGEST });
    for (const app of RELEASED_APPS.filter((name) => name !== 'customers-v1')) {
      expect({ app, tag: images[app]?.tag, version: JSON.parse(read(`apps/${app}/release.json`)).version }).toEqual({ app, tag: '1.0.0', version: '1.0.0' });
    }
    for (const path of generated) {
      expect(read(path)).toContain(`name: erp/customers-v1\n    newName: registry.example.com/erp/customers-v1\n    newTag: 1.1.0\n    digest: ${DIGEST}`);
      // In each generated file, only customers-v1's tag and digest changed.
      const diff = git('diff', '--unified=0', path);
      expect({ path, lines: diff.split('\n').filter((line) => /^[-+] /.test(line)) }).toEqual({
        path,
        lines: ['-    newTag: 1.0.0', expect.stringMatching(/^- {4}digest: sha256:/), '+    newTag: 1.1.0', `+    digest: ${DIGEST}`],
      });
    }
  }, 120_000);

  it('leaves generated files that the generator writes again unchanged (they were generated, not edited)', () => {
    const before = git('status', '--porcelain');
    execFileSync(process.execPath, ['-r', '@swc-node/register', 'tools/deploy-check/src/generate.ts'], { cwd: clone });
    expect(git('status', '--porcelain')).toBe(before);
    expect(git('diff')).toContain('newTag: 1.1.0');
  }, 120_000);

  it('names the apps a change must release (nx affected): one app for its own file, every user of a library for the library', () => {
    const affected = () =>
      execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', "process.stdout.write(JSON.stringify(require('./tools/release/src/apps/app-changes').affectedApps('HEAD')))"], {
        cwd: clone,
        encoding: 'utf8',
        env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      });
    const touch = (path: string) => execFileSync('sh', ['-c', `echo '// touched' >> ${path}`], { cwd: clone });
    git('stash', '--quiet', '--include-untracked');
    touch('apps/webhook-publisher/src/main.ts');
    expect(JSON.parse(affected())).toEqual(['webhook-publisher']);
    touch('libs/contracts/src/topics/topics.ts');
    expect(JSON.parse(affected())).toEqual(['customers-v1', 'supplier-invoices-v1', 'attachments-v1', 'sales-orders-v3', 'webhook-publisher', 'api-gateway']);
    git('checkout', '--quiet', '--', '.');
  }, 180_000);
});
