import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * `@sparticuz/chromium` is ESM-only and finds its files through `import.meta.url`, which Jest's
 * CommonJS module system cannot load; a plain Node process (the same runtime as the tests) asks it
 * for the binary instead. It inflates the browser shipped inside the npm package into the OS temp
 * directory on first use and returns that path afterwards.
 */
const INFLATE_PACKAGED_CHROMIUM =
  "const { default: chromium } = await import('@sparticuz/chromium'); process.stdout.write(await chromium.executablePath());";

/** Flags for a headless run on a machine with no network but loopback and no GPU (root-safe). */
export const HEADLESS_CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The Chromium browser tests drive: `CHROMIUM_PATH` when set (a browser found on the machine, e.g.
 * Debian's `/usr/bin/chromium`), otherwise the one the repository brings through npm
 * (`@sparticuz/chromium`), so `npm test` needs no browser download and no system package.
 */
export async function chromiumExecutablePath(): Promise<string> {
  const configured = process.env['CHROMIUM_PATH'];
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist; unset it to use the packaged Chromium`);
    return configured;
  }
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', INFLATE_PACKAGED_CHROMIUM], {
    cwd: __dirname,
    timeout: 120_000,
  });
  if (!existsSync(stdout)) throw new Error(`@sparticuz/chromium returned ${JSON.stringify(stdout)}, which does not exist`);
  return stdout;
}
