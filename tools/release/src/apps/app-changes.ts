import { execFileSync } from 'node:child_process';
import { createProjectGraphAsync, type ProjectGraph } from '@nx/devkit';
import { REPOSITORY_ROOT } from '../releases';
import { RELEASED_APPS, type ReleasedApp } from './app-release';

/** An app's project and every project it depends on, transitively (its libraries). */
export function dependencyClosure(graph: ProjectGraph, app: string): string[] {
  const seen = new Set<string>([app]);
  const queue = [app];
  while (queue.length > 0) {
    for (const dependency of graph.dependencies[queue.shift() as string] ?? []) {
      if (graph.nodes[dependency.target] && !seen.has(dependency.target)) {
        seen.add(dependency.target);
        queue.push(dependency.target);
      }
    }
  }
  return [...seen];
}

export interface AppCommit {
  hash: string;
  subject: string;
}

/**
 * The commits since `base` that changed the app or a library it uses: its changelog's lines.
 * The lockfile and the shared TypeScript config count too (they change what the image runs).
 */
export async function commitsForApp(app: ReleasedApp, base: string, root = REPOSITORY_ROOT): Promise<AppCommit[]> {
  const graph = await createProjectGraphAsync({ exitOnError: true });
  const roots = dependencyClosure(graph, app).map((name) => graph.nodes[name]?.data.root as string);
  const log = execFileSync('git', ['log', '--no-merges', '--format=%H%x09%s', `${base}..HEAD`, '--', ...roots, 'package-lock.json', 'tsconfig.base.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  return log
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [hash, ...subject] = line.split('\t');
      return { hash: hash as string, subject: subject.join('\t') };
    });
}

/**
 * The apps a change since `base` must release: `nx show projects --affected` (what `nx affected`
 * runs targets on), kept to the released apps. Without `head`, the working tree's uncommitted
 * changes count too, as in `nx affected --base=<base>`.
 */
export function affectedApps(base: string, head?: string, root = REPOSITORY_ROOT): ReleasedApp[] {
  const range = head ? [`--base=${base}`, `--head=${head}`] : [`--base=${base}`];
  const out = execFileSync(process.execPath, [require.resolve('nx/bin/nx.js'), 'show', 'projects', '--affected', ...range, '--type=app', '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
  });
  const projects = JSON.parse(out) as string[];
  return RELEASED_APPS.filter((app) => projects.includes(app));
}
