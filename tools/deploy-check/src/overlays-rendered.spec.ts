import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { deployedApps, REPO_ROOT } from './catalog';
import { ENVIRONMENTS } from './environments';
import { generatedFiles } from './generate';
import type { Manifest } from './kubernetes';
import { renderKustomization } from './kustomize';
import { validateManifest } from './validate-manifest';

/**
 * The overlays as a cluster receives them: rendered by the real kustomize (`kustomize build` or
 * `kubectl kustomize`) where one is installed, else by the repository's renderer (kustomize.ts),
 * which must then agree with the real one wherever both run. Each overlay is rendered as
 * generated, and once more with its optional PgBouncer component switched on.
 */
const kustomize = [
  { command: ['kustomize', 'build'], probe: ['version'] },
  { command: ['kubectl', 'kustomize'], probe: ['version', '--client'] },
].find(({ command, probe }) => {
  try {
    execFileSync(command[0] as string, probe, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
if (!kustomize) {
  process.stderr.write('overlays-rendered.spec: no kustomize or kubectl on PATH, so only the repository renderer runs (Debian: apt-get install kubernetes-client, or the kustomize binary)\n');
}

const apps = deployedApps();
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as Manifest;
const key = (o: Manifest) => `${o.kind}/${o.metadata.name}`;
const renderReal = (dir: string) => {
  const [bin, ...args] = kustomize?.command ?? [];
  return parseAllDocuments(execFileSync(bin as string, [...args, dir], { encoding: 'utf8' })).map((d) => d.toJS() as Manifest);
};
const kinds = (objects: Manifest[]) =>
  Object.fromEntries([...new Set(objects.map((o) => o.kind))].sort().map((kind) => [kind, objects.filter((o) => o.kind === kind).length]));

/** The generated tree with the pooler on in every environment, written to a temporary root. */
let pooledRoot: string;
beforeAll(() => {
  pooledRoot = mkdtempSync(join(tmpdir(), 'overlays-pooled-'));
  const pooled = ENVIRONMENTS.map((env) => ({ ...env, pooler: { ...env.pooler, enabled: true } }));
  for (const [path, content] of generatedFiles(apps, pooled)) {
    mkdirSync(dirname(join(pooledRoot, path)), { recursive: true });
    writeFileSync(join(pooledRoot, path), content);
  }
});
afterAll(() => rmSync(pooledRoot, { recursive: true, force: true }));

const variants = ENVIRONMENTS.flatMap((env) => [
  { name: env.name, pooler: false, dir: () => join(REPO_ROOT, 'docker/kubernetes/overlays', env.name) },
  { name: `${env.name} + pgbouncer`, pooler: true, dir: () => join(pooledRoot, 'docker/kubernetes/overlays', env.name) },
]);

describe.each(variants)('the $name overlay', ({ name, pooler, dir }) => {
  let objects: Manifest[];
  beforeAll(() => {
    objects = (kustomize ? renderReal(dir()) : renderKustomization(dir())).map(plain);
    process.stdout.write(`${kustomize ? kustomize.command.join(' ') : 'repository renderer'} ${name}: ${objects.length} objects ${JSON.stringify(kinds(objects))}\n`);
  });

  it('renders the app kinds plus the network policies, PodMonitors, PrometheusRules and dashboards', () => {
    const perApp = apps.length;
    const migrations = apps.filter((app) => app.database).length;
    const env = ENVIRONMENTS.find((e) => name.startsWith(e.name));
    expect(kinds(objects)).toEqual({
      // erp-config and one Grafana dashboard per app plus the event pipeline's; pgbouncer's own.
      ConfigMap: 1 + perApp + 1 + (pooler ? 1 : 0),
      Deployment: perApp + (pooler ? 1 : 0),
      HorizontalPodAutoscaler: perApp,
      Job: migrations,
      // default deny, per app the calls policy (base) and the platform policy (overlay), one per
      // neighbour in the namespace (dev's PostgreSQL, Kafka, ...); pgbouncer's two.
      NetworkPolicy: 1 + 2 * perApp + (env?.network.neighbours.length ?? 0) + (pooler ? 2 : 0),
      PodDisruptionBudget: perApp + (pooler ? 1 : 0),
      PodMonitor: perApp,
      PrometheusRule: 6,
      // per database its <app>-database and <app>-database-owner; object storage's and the internal API's; pgbouncer's.
      ...(env?.shipsSecrets ? { Secret: 2 * migrations + 2 + (pooler ? 1 : 0) } : {}),
      Service: perApp + (pooler ? 1 : 0),
      ServiceAccount: perApp,
    });
  });

  it('validates every object against its schema (Kubernetes and the Prometheus Operator)', () => {
    expect(objects.flatMap(validateManifest)).toEqual([]);
  });

  (kustomize ? it : it.skip)("matches the repository renderer's output object for object", () => {
    const ours = new Map(renderKustomization(dir()).map((o) => [key(o), plain(o)]));
    expect(objects.map(key).sort()).toEqual([...ours.keys()].sort());
    expect(objects.filter((o) => !isDeepStrictEqual(o, ours.get(key(o)))).map(key)).toEqual([]);
  });
});
