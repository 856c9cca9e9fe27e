import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '@erp/bootstrap';
import { CONFIG_MAP_NAME, deployedApps, REPO_ROOT } from './catalog';
import { ENVIRONMENTS } from './environments';
import {
  APP_CONTAINER,
  DEFAULT_MEMORY_MIB,
  type Manifest,
  MIGRATE_CONTAINER,
  PRESTOP_SLEEP_SECONDS,
  TERMINATION_GRACE_SECONDS,
} from './kubernetes';
import { renderKustomization } from './kustomize';
import { validateManifest } from './validate-manifest';

const KUBERNETES = join(REPO_ROOT, 'docker', 'kubernetes');
const apps = deployedApps();
const rendered = Object.fromEntries(
  ['base', ...ENVIRONMENTS.map((env) => `overlays/${env.name}`)].map((dir) => [
    dir,
    renderKustomization(join(KUBERNETES, dir)),
  ]),
);

type Container = {
  name: string;
  image: string;
  command?: string[];
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: {
      configMapKeyRef?: { name: string; key: string };
      secretKeyRef?: { name: string; key: string };
    };
  }>;
  [key: string]: unknown;
};
type PodSpec = { containers: Container[]; [key: string]: unknown };

const find = (objects: Manifest[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const podSpec = (object: Manifest) => (object.spec as { template: { spec: PodSpec } }).template.spec;
const podLabels = (object: Manifest) =>
  (object.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe.each(Object.keys(rendered))('the %s manifests', (dir) => {
  const objects = rendered[dir] as Manifest[];

  it('all validate against the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(0);
    expect(objects.flatMap(validateManifest)).toEqual([]);
  });

  it('have unique kind/name pairs', () => {
    const keys = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  describe.each(apps.map((app) => [app.name, app] as const))('%s', (name, app) => {
    it('has a ServiceAccount, Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget', () => {
      for (const kind of [
        'ServiceAccount',
        'Deployment',
        'Service',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
      ]) {
        expect([kind, find(objects, kind, name)?.metadata.name]).toEqual([kind, name]);
      }
    });

    it("runs the image's server, with the catalog's Node flags when it has any", () => {
      const container = podSpec(find(objects, 'Deployment', name) as Manifest).containers.find((c) => c.name === APP_CONTAINER);
      if (app.nodeArgs.length === 0) return expect(container?.command).toBeUndefined();
      expect(container?.command).toEqual(['node', ...app.nodeArgs, 'main.js']);
    });

    it('probes the health endpoints, drains before stopping and runs non-root on a read-only file system', () => {
      const deployment = find(objects, 'Deployment', name) as Manifest;
      const pod = podSpec(deployment);
      const container = pod.containers.find((c) => c.name === APP_CONTAINER) as Container;
      expect(container.livenessProbe).toMatchObject({ httpGet: { path: '/health/live', port: 'http' } });
      expect(container.readinessProbe).toMatchObject({ httpGet: { path: '/health/ready', port: 'http' } });
      expect(container.startupProbe).toMatchObject({ httpGet: { path: '/health/live' } });
      expect(container.lifecycle).toEqual({
        preStop: { exec: { command: ['sleep', String(PRESTOP_SLEEP_SECONDS)] } },
      });
      expect(pod.terminationGracePeriodSeconds).toBe(TERMINATION_GRACE_SECONDS);
      const shutdownTimeout =
        Number(container.env?.find((e) => e.name === 'SHUTDOWN_TIMEOUT_MS')?.value) / 1000;
      expect(PRESTOP_SLEEP_SECONDS + shutdownTimeout).toBeLessThan(TERMINATION_GRACE_SECONDS);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(container.resources).toMatchObject({
        requests: { cpu: expect.any(String), memory: expect.any(String) },
        limits: { memory: expect.any(String) },
      });
    });

    it('selects its pods from the Service, autoscaler and disruption budget', () => {
      const labels = podLabels(find(objects, 'Deployment', name) as Manifest);
      const service = find(objects, 'Service', name) as Manifest;
      expect(matches((service.spec as { selector: Record<string, string> }).selector, labels)).toBe(true);
      const pdb = find(objects, 'PodDisruptionBudget', name) as Manifest;
      expect(
        matches(
          (pdb.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
          labels,
        ),
      ).toBe(true);
      const hpa = find(objects, 'HorizontalPodAutoscaler', name) as Manifest;
      expect((hpa.spec as { scaleTargetRef: unknown }).scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name,
      });
    });

    it(
      app.database ? 'migrates with a Job running the same image' : 'has no migration Job (no database)',
      () => {
        const job = find(objects, 'Job', `${name}-migrate`);
        if (!app.database) return expect(job).toBeUndefined();
        const migrate = podSpec(job as Manifest).containers.find(
          (c) => c.name === MIGRATE_CONTAINER,
        ) as Container;
        const server = podSpec(find(objects, 'Deployment', name) as Manifest).containers[0] as Container;
        expect(migrate.command).toEqual(['node', 'migrate.js']);
        expect(migrate.image).toBe(server.image);
        expect(podSpec(job as Manifest).restartPolicy).toBe('Never');
      },
    );

    it('sets only variables its config class declares, DATABASE_URL from a Secret', () => {
      const workloads = [find(objects, 'Deployment', name), find(objects, 'Job', `${name}-migrate`)].filter(
        Boolean,
      ) as Manifest[];
      for (const workload of workloads) {
        const env = podSpec(workload).containers[0]?.env ?? [];
        expect(env.map((e) => e.name).filter((variable) => !app.variables.includes(variable))).toEqual([]);
        if (app.database) {
          expect(env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
            name: `${name}-database`,
            key: 'DATABASE_URL',
          });
        }
      }
    });
  });
});

describe.each(ENVIRONMENTS.map((env) => [env.name, env] as const))('the %s overlay', (_name, env) => {
  const objects = rendered[`overlays/${env.name}`] as Manifest[];
  const config = find(objects, 'ConfigMap', CONFIG_MAP_NAME) as Manifest & { data: Record<string, string> };
  const secrets = objects.filter((o) => o.kind === 'Secret') as Array<
    Manifest & { stringData: Record<string, string> }
  >;

  it('puts everything in its namespace with its image registry and tag', () => {
    expect(objects.every((o) => o.metadata.namespace === env.namespace)).toBe(true);
    for (const app of apps) {
      expect(podSpec(find(objects, 'Deployment', app.name) as Manifest).containers[0]?.image).toBe(
        `${env.imagePrefix}${app.name}:${env.imageTag}`,
      );
    }
  });

  it("sets the autoscaling bounds and CPU request of the environment and keeps each app's measured memory", () => {
    for (const app of apps) {
      expect((find(objects, 'HorizontalPodAutoscaler', app.name) as Manifest).spec).toMatchObject({
        minReplicas: env.minReplicas,
        maxReplicas: env.maxReplicas,
      });
      const memory = app.memoryMiB ?? DEFAULT_MEMORY_MIB;
      expect(podSpec(find(objects, 'Deployment', app.name) as Manifest).containers[0]?.resources).toEqual({
        requests: { cpu: env.resources.requests.cpu, memory: `${memory.request}Mi` },
        limits: { memory: `${memory.limit}Mi` },
      });
    }
  });

  it('has a value for every ConfigMap key the workloads read', () => {
    const refs = objects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
      .flatMap((o) => podSpec(o).containers.flatMap((c) => c.env ?? []))
      .flatMap((e) => (e.valueFrom?.configMapKeyRef ? [e.valueFrom.configMapKeyRef] : []));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.name).toBe(CONFIG_MAP_NAME);
      expect([ref.key, config.data[ref.key]]).toEqual([ref.key, expect.stringMatching(/.+/)]);
    }
  });

  if (env.shipsSecrets) {
    it('starts every app: the variables it resolves to pass the app config validation', () => {
      for (const app of apps) {
        const workloads = [
          find(objects, 'Deployment', app.name),
          find(objects, 'Job', `${app.name}-migrate`),
        ].filter(Boolean) as Manifest[];
        for (const workload of workloads) {
          const resolved = Object.fromEntries(
            (podSpec(workload).containers[0]?.env ?? []).map((e) => {
              const secretRef = e.valueFrom?.secretKeyRef;
              const configRef = e.valueFrom?.configMapKeyRef;
              if (secretRef) {
                const secret = secrets.find((s) => s.metadata.name === secretRef.name);
                expect([secretRef.name, secret?.stringData[secretRef.key]]).toEqual([
                  secretRef.name,
                  expect.any(String),
                ]);
                return [e.name, secret?.stringData[secretRef.key]];
              }
              return [e.name, configRef ? config.data[configRef.key] : e.value];
            }),
          );
          expect(() => loadConfig(app.configClass, resolved)).not.toThrow();
        }
      }
    });
  } else {
    it('ships no Secret (they are created outside git)', () => {
      expect(secrets).toEqual([]);
    });
  }
});

// The renderer implements a subset of kustomize; where the real one is installed, both must agree.
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

(kustomize ? describe : describe.skip)('the renderer compared with the real kustomize', () => {
  it.each(ENVIRONMENTS.map((env) => env.name))('renders the %s overlay to the same objects', (name) => {
    const [bin, ...args] = kustomize?.command ?? [];
    const output = execFileSync(bin as string, [...args, join(KUBERNETES, 'overlays', name)], {
      encoding: 'utf8',
    });
    const real = parseAllDocuments(output).map((d) => d.toJS() as Manifest);
    const key = (o: Manifest) => `${o.kind}/${o.metadata.name}`;
    const ours = new Map((rendered[`overlays/${name}`] as Manifest[]).map((o) => [key(o), o]));
    expect(real.map(key).sort()).toEqual([...ours.keys()].sort());
    // Through JSON: structuredClone in the renderer makes objects of another realm under Jest.
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    expect(real.filter((o) => !isDeepStrictEqual(plain(o), plain(ours.get(key(o))))).map(key)).toEqual([]);
  });
});
