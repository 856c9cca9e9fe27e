import { readFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

type ResolveFilename = (request: string, ...rest: unknown[]) => string;
const moduleInternals = Module as unknown as { _resolveFilename: ResolveFilename };
const REGISTERED = Symbol.for('@erp/testing:workspace-aliases');

/**
 * Lets Node's own `require` resolve the `@erp/<lib>` aliases of tsconfig.base.json.
 *
 * Jest's global setup and teardown run outside Jest's module system, so `moduleNameMapper` does
 * not apply to them (the SWC transform still does). Exact aliases only, as in jest.config.js.
 */
export function registerWorkspaceAliases(rootDir: string): void {
  const holder = globalThis as { [REGISTERED]?: true };
  if (holder[REGISTERED]) return;
  const tsconfig = JSON.parse(readFileSync(path.join(rootDir, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const targets = new Map(
    Object.entries(tsconfig.compilerOptions.paths).flatMap(([alias, [target]]) =>
      target ? [[alias, path.join(rootDir, target)] as const] : [],
    ),
  );
  const resolve = moduleInternals._resolveFilename;
  moduleInternals._resolveFilename = function resolveWithAliases(this: unknown, request, ...rest) {
    return resolve.call(this, targets.get(request) ?? request, ...rest);
  };
  holder[REGISTERED] = true;
}
