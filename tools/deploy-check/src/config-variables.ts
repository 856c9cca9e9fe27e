import { getMetadataStorage } from 'class-validator';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceConfig } from '@erp/bootstrap';

export type ConfigClass = new () => ServiceConfig;

/**
 * An app's config class, read from `<dir>/src/config.ts` (the class extending `ServiceConfig` that
 * its main.ts validates). Loaded by path at run time, as data: a tool never imports an app.
 */
export function loadConfigClass(rootDir: string, appDir: string): ConfigClass {
  const file = join(rootDir, appDir, 'src', 'config.ts');
  if (!existsSync(file)) throw new Error(`${appDir}: no src/config.ts`);
  const exports = require(file) as Record<string, unknown>;
  const found = Object.values(exports).find(
    (value): value is ConfigClass => typeof value === 'function' && value.prototype instanceof ServiceConfig,
  );
  if (!found) throw new Error(`${appDir}/src/config.ts exports no class extending ServiceConfig`);
  return found;
}

/** Every variable a config class reads: validated properties (its own and inherited) and defaults. */
export function configVariables(cls: ConfigClass): string[] {
  const names = new Set(Object.keys(new cls()));
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false)) {
    names.add(metadata.propertyName);
  }
  return [...names].sort();
}
