import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const REGISTERED = Symbol.for('@erp/test-fixtures:workspace-aliases');

/**
 * Lets Node's own `require` resolve the `@erp/<lib>` aliases of tsconfig.base.json.
 *
 * Jest's global setup and teardown run outside Jest's module system, so `moduleNameMapper` does
 * not apply to them (the SWC transform still does). Node's public synchronous resolve hook
 * (`module.registerHooks`) maps each exact alias to its file. Exact aliases only, as in jest.preset.js.
 */
export function registerWorkspaceAliases(workspaceRoot: string): void {
  const holder = globalThis as { [REGISTERED]?: true };
  if (holder[REGISTERED]) return;
  const tsconfig = JSON.parse(readFileSync(path.join(workspaceRoot, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const targets = new Map(
    Object.entries(tsconfig.compilerOptions.paths).flatMap(([alias, [target]]) =>
      target ? [[alias, pathToFileURL(path.join(workspaceRoot, target)).href] as const] : [],
    ),
  );
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const target = targets.get(specifier);
      return target ? { url: target, shortCircuit: true } : nextResolve(specifier, context);
    },
  });
  holder[REGISTERED] = true;
}
