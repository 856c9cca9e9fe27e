import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const WORKSPACE_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface WorkspaceProject {
  name: string;
  /** Repository-relative, e.g. `apps/customers-v1`. */
  root: string;
  tags: string[];
}

/** Every Nx project of the workspace: a folder under apps/, libs/ or tools/ with a project.json. */
export function workspaceProjects(): WorkspaceProject[] {
  return ['apps', 'libs', 'tools'].flatMap((group) =>
    readdirSync(path.join(WORKSPACE_ROOT, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const root = `${group}/${entry.name}`;
        try {
          const project = JSON.parse(readFileSync(path.join(WORKSPACE_ROOT, root, 'project.json'), 'utf8')) as {
            name: string;
            tags?: string[];
          };
          return [{ name: project.name, root, tags: project.tags ?? [] }];
        } catch {
          return [];
        }
      }),
  );
}
