import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm run build:image-sizes`: what each app's image carries on top of the Node base image: its
 * bundle plus the production packages its generated package.json and lockfile install (the
 * Dockerfile's production-deps stage, run here without Docker), next to the root production
 * dependencies every image carried before. Prints a Markdown table for the README.
 */
const REPO_ROOT = join(__dirname, '..', '..', '..');
const APPS = ['api-gateway', 'customers-v1', 'supplier-invoices-v1', 'attachments-v1', 'sales-orders-v3', 'webhook-publisher'];

function installedMiB(manifestDir: string, withBundle: boolean): number {
  const dir = mkdtempSync(join(tmpdir(), 'image-size-'));
  try {
    cpSync(join(manifestDir, 'package.json'), join(dir, 'package.json'));
    cpSync(join(manifestDir, 'package-lock.json'), join(dir, 'package-lock.json'));
    if (withBundle) cpSync(manifestDir, dir, { recursive: true });
    execFileSync('npm', ['ci', '--omit=dev', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
    const kib = Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
    return Math.round((kib / 1024) * 10) / 10;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', '.bin', 'nx'), 'run-many', '-t', 'build', '-p', ...APPS, '--outputStyle=static'], { cwd: REPO_ROOT, stdio: 'inherit' });
const before = installedMiB(REPO_ROOT, false);
const rows = APPS.map((app) => `| ${app} | ${installedMiB(join(REPO_ROOT, 'dist', 'apps', app), true)} MiB | ${before} MiB |`);
process.stdout.write(['| image | app layer now (bundle + its production packages) | before (root production dependencies) |', '| --- | --- | --- |', ...rows].join('\n') + '\n');
