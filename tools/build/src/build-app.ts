import { transformFile, type Options } from '@swc/core';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository root (tools/build/src -> ../../..). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

export interface BuildOptions {
  /** Where the app goes; default `dist/apps/<app>`. Emptied first. */
  outDir?: string;
  rootDir?: string;
}

export interface BuildResult {
  outDir: string;
  /** Entry points written at the top of outDir, e.g. `main.js` and `migrate.js`. */
  entries: string[];
  /** Repository-relative paths of the compiled sources. */
  sources: string[];
}

/** `src/main.ts` is the server; `src/migrate.ts`, when present, applies the migrations and exits. */
const ENTRY_POINTS = ['main', 'migrate'];

const RELATIVE_REQUIRE = /\brequire\("(\.{1,2}\/[^"]*)"\)/g;

/**
 * Compiles one app for production with SWC: its entry points and every workspace file they reach
 * (the `@erp/*` aliases are rewritten to relative paths by SWC's `jsc.paths`), laid out as in the
 * repository under `<outDir>/` so the relative paths hold, with a `main.js` / `migrate.js` at the
 * top. npm packages stay `require`s: the image installs the production dependencies next to it.
 * Same SWC settings as the tests and `npm start` (`.swcrc`: decorators and their metadata).
 */
export async function buildApp(app: string, options: BuildOptions = {}): Promise<BuildResult> {
  const rootDir = options.rootDir ?? REPO_ROOT;
  const appDir = join(rootDir, 'apps', app);
  if (!existsSync(join(appDir, 'src', 'main.ts'))) throw new Error(`apps/${app}/src/main.ts does not exist`);
  const outDir = resolve(options.outDir ?? join(rootDir, 'dist', 'apps', app));
  rmSync(outDir, { recursive: true, force: true });

  const swcOptions = swcOptionsFor(rootDir);
  const entries = ENTRY_POINTS.filter((name) => existsSync(join(appDir, 'src', `${name}.ts`)));
  const queue = entries.map((name) => join(appDir, 'src', `${name}.ts`));
  const seen = new Set<string>(queue);
  const sources: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const rel = relative(rootDir, file);
    sources.push(rel);
    if (file.endsWith('.json')) {
      write(join(outDir, rel), readFileSync(file));
      continue;
    }
    const output = await transformFile(file, {
      ...swcOptions,
      filename: file,
      sourceFileName: relative(dirname(join(outDir, rel)), file),
    });
    const target = join(outDir, rel.replace(/\.ts$/, '.js'));
    write(target, `${output.code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (output.map) write(`${target}.map`, output.map);
    for (const match of output.code.matchAll(RELATIVE_REQUIRE)) {
      const dependency = resolveSource(dirname(file), match[1] as string);
      if (!dependency) throw new Error(`${rel}: cannot resolve require("${match[1]}")`);
      if (!seen.has(dependency)) {
        seen.add(dependency);
        queue.push(dependency);
      }
    }
  }
  for (const name of entries) {
    write(join(outDir, `${name}.js`), `'use strict';\nrequire('./apps/${app}/src/${name}.js');\n`);
  }
  return { outDir, entries: entries.map((name) => `${name}.js`), sources: sources.sort() };
}

function swcOptionsFor(rootDir: string): Options {
  const swcrc = JSON.parse(readFileSync(join(rootDir, '.swcrc'), 'utf8')) as Options & { $schema?: string };
  delete swcrc.$schema;
  const tsconfig = JSON.parse(readFileSync(join(rootDir, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return {
    ...swcrc,
    swcrc: false,
    sourceMaps: true,
    jsc: { ...swcrc.jsc, baseUrl: rootDir, paths: tsconfig.compilerOptions.paths },
  };
}

function resolveSource(fromDir: string, specifier: string): string | undefined {
  const base = resolve(fromDir, specifier);
  const candidates = [base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile() && /\.(ts|json)$/.test(candidate),
  );
}

function write(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
