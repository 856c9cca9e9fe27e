import { join } from 'node:path';
import { loadConfig } from '@erp/bootstrap';
import { CONFIG_MAP_NAME, deployedApps, INTERNAL_API_SECRET_NAME, METRICS_PORT, MIGRATE_VARIABLES, REPO_ROOT } from './catalog';
import { ENVIRONMENTS } from './environments';
import { expectedImage } from './images';
import {
  APP_CONTAINER,
  DEFAULT_MEMORY_MIB,
  type Manifest,
  MIGRATE_CONTAINER,
  PRESTOP_SLEEP_SECONDS,
  TERMINATION_GRACE_SECONDS,
} from './kubernetes';
import { CONTRACT_JOB_SUFFIX, MIGRATION_DEADLINE_SECONDS, SCHEMA_WAIT_SECONDS, WAIT_FOR_SCHEMA_CONTAINER } from './kubernetes-migrations';
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

    it(`serves /metrics on port ${METRICS_PORT} alone, which its Service does not expose and its scrape annotations name`, () => {
      const deployment = find(objects, 'Deployment', name) as Manifest;
      const container = podSpec(deployment).containers[0] as Container & { ports: Array<{ name: string; containerPort: number }> };
      expect(container.ports).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'metrics', containerPort: METRICS_PORT })]));
      expect(container.env?.find((e) => e.name === 'METRICS_PORT')?.value).toBe(String(METRICS_PORT));
      const annotations = (deployment.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations;
      expect(annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(METRICS_PORT), 'prometheus.io/path': '/metrics' });
      const service = find(objects, 'Service', name) as Manifest;
      const ports = (service.spec as { ports: Array<{ port: number; targetPort: string }> }).ports;
      expect(ports.map((p) => p.targetPort)).toEqual(['http']);
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
      app.database ? 'migrates with an expand Job running the same image, with a deadline that fits its retries' : 'has no migration Job (no database)',
      () => {
        const job = find(objects, 'Job', `${name}-migrate`);
        if (!app.database) return expect(job).toBeUndefined();
        const migrate = podSpec(job as Manifest).containers.find(
          (c) => c.name === MIGRATE_CONTAINER,
        ) as Container;
        const server = podSpec(find(objects, 'Deployment', name) as Manifest).containers[0] as Container;
        expect(migrate.command).toEqual(['node', 'migrate.js', '--phase=expand']);
        expect(migrate.image).toBe(server.image);
        expect(podSpec(job as Manifest).restartPolicy).toBe('Never');
        expect((job as Manifest & { spec: { activeDeadlineSeconds: number } }).spec.activeDeadlineSeconds).toBe(MIGRATION_DEADLINE_SECONDS);
        // The contract step is never part of the release's own apply (docs/migrations.md).
        expect(find(objects, 'Job', `${name}${CONTRACT_JOB_SUFFIX}`)).toBeUndefined();
      },
    );

    it(
      app.database ? "starts its pods only once the database holds its expand migrations (init container)" : 'has no schema to wait for',
      () => {
        const pod = podSpec(find(objects, 'Deployment', name) as Manifest) as PodSpec & { initContainers?: Container[] };
        if (!app.database) return expect(pod.initContainers).toBeUndefined();
        const [wait] = pod.initContainers ?? [];
        expect(wait?.name).toBe(WAIT_FOR_SCHEMA_CONTAINER);
        expect(wait?.command).toEqual(['node', 'migrate.js', `--wait-for-schema=${SCHEMA_WAIT_SECONDS}`]);
        expect(wait?.image).toBe(pod.containers[0]?.image);
      },
    );

    it('sets only variables its config class declares, DATABASE_URL from a Secret: the owner login for the Job, the runtime login for the pods', () => {
      const workloads = [find(objects, 'Deployment', name), find(objects, 'Job', `${name}-migrate`)].filter(
        Boolean,
      ) as Manifest[];
      for (const workload of workloads) {
        const isJob = workload.kind === 'Job';
        const containers = [...podSpec(workload).containers, ...((podSpec(workload) as { initContainers?: Container[] }).initContainers ?? [])];
        for (const container of containers) {
          const env = container.env ?? [];
          const declared = isJob ? [...app.variables, ...MIGRATE_VARIABLES] : app.variables;
          expect(env.map((e) => e.name).filter((variable) => !declared.includes(variable))).toEqual([]);
          if (app.database) {
            expect(env.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
              name: isJob ? `${name}-database-owner` : `${name}-database`,
              key: 'DATABASE_URL',
            });
          }
          if (isJob) {
            expect(env.find((e) => e.name === 'DATABASE_RUNTIME_LOGIN')?.valueFrom?.secretKeyRef).toEqual({
              name: `${name}-database-owner`,
              key: 'DATABASE_RUNTIME_LOGIN',
              optional: true,
            });
          }
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
      const image = expectedImage(env, app, apps);
      expect(podSpec(find(objects, 'Deployment', app.name) as Manifest).containers[0]?.image).toBe(image);
      const job = find(objects, 'Job', `${app.name}-migrate`);
      if (job) expect(podSpec(job).containers[0]?.image).toBe(image);
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

  it('scrapes every app with a PodMonitor on the named metrics port of its API pods, job = the app', () => {
    for (const app of apps) {
      const monitor = find(objects, 'PodMonitor', app.name) as Manifest & { spec: Record<string, unknown> };
      expect(monitor.spec).toMatchObject({
        jobLabel: 'app.kubernetes.io/name',
        selector: { matchLabels: { 'app.kubernetes.io/name': app.name, 'app.kubernetes.io/component': 'api' } },
        podMetricsEndpoints: [{ port: 'metrics', path: '/metrics' }],
      });
      const labels = podLabels(find(objects, 'Deployment', app.name) as Manifest);
      expect(matches((monitor.spec.selector as { matchLabels: Record<string, string> }).matchLabels, labels)).toBe(true);
      expect(labels['app.kubernetes.io/name']).toBe(app.name);
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

  /**
   * The variables an app's workloads resolve to, as Kubernetes resolves them: a missing optional
   * Secret key leaves the variable unset; a required one must be in `secrets` (the overlay's, or
   * for an overlay whose Secrets live outside git, the ones it documents as required).
   */
  const resolve = (workload: Manifest, available: Array<Manifest & { stringData: Record<string, string> }>) =>
    Object.fromEntries(
      (podSpec(workload).containers[0]?.env ?? []).flatMap((e) => {
        const secretRef = e.valueFrom?.secretKeyRef as { name: string; key: string; optional?: boolean } | undefined;
        const configRef = e.valueFrom?.configMapKeyRef;
        if (!secretRef) return [[e.name, configRef ? config.data[configRef.key] : e.value]];
        const value = available.find((s) => s.metadata.name === secretRef.name)?.stringData[secretRef.key];
        if (value === undefined && secretRef.optional) return [];
        expect([secretRef.name, secretRef.key, value]).toEqual([secretRef.name, secretRef.key, expect.any(String)]);
        return [[e.name, value]];
      }),
    );
  const workloadsOf = (name: string) =>
    [find(objects, 'Deployment', name), find(objects, 'Job', `${name}-migrate`)].filter(Boolean) as Manifest[];

  if (env.shipsSecrets) {
    it('starts every app: the variables it resolves to pass the app config validation', () => {
      for (const app of apps) {
        for (const workload of workloadsOf(app.name)) expect(() => loadConfig(app.configClass, resolve(workload, secrets))).not.toThrow();
      }
    });
  } else {
    it('ships no Secret (they are created outside git)', () => {
      expect(secrets).toEqual([]);
    });
  }

  it('gives the internal API secret to the services that serve or call an internal API, never to the gateway', () => {
    const holders = apps
      .filter((app) => (podSpec(find(objects, 'Deployment', app.name) as Manifest).containers[0]?.env ?? []).some((e) => e.name === 'INTERNAL_API_SECRET'))
      .map((app) => app.name)
      .sort();
    expect(holders).toEqual(['attachments-v1', 'customers-v1', 'sales-orders-v3', 'supplier-invoices-v1']);
  });

  it('starts every app with only the <app>-database and <app>-database-owner Secrets and the internal API secret: object storage keys and Kafka SASL are optional', () => {
    const required = [
      ...apps.flatMap((app) =>
        app.database
          ? [
              { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${app.name}-database` }, stringData: { DATABASE_URL: `postgres://u:p@db:5432/${app.database}` } },
              // DATABASE_RUNTIME_LOGIN is optional: an operator may grant the roles by hand.
              { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${app.name}-database-owner` }, stringData: { DATABASE_URL: `postgres://o:p@db:5432/${app.database}` } },
            ]
          : [],
      ),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: INTERNAL_API_SECRET_NAME }, stringData: { secret: 'an-internal-api-secret-of-at-least-32-characters' } },
    ];
    for (const app of apps) {
      for (const workload of workloadsOf(app.name)) {
        const resolved = resolve(workload, required);
        expect(() => loadConfig(app.configClass, resolved)).not.toThrow();
        expect(Object.keys(resolved).filter((name) => /^(S3_ACCESS_KEY_ID|S3_SECRET_ACCESS_KEY|KAFKA_SASL_|DATABASE_SESSION_URL)/.test(name))).toEqual([]);
      }
    }
    // attachments-v1 does use object storage here, with the SDK's default credentials (workload identity).
    const attachments = resolve(find(objects, 'Deployment', 'attachments-v1') as Manifest, required);
    expect(attachments).toMatchObject({ STORAGE_DRIVER: 's3', S3_BUCKET: env.config['S3_BUCKET'] });
  });
});

describe.each(ENVIRONMENTS.map((env) => [env.name] as const))('the %s contract step (overlays/<env>/contract)', (envName) => {
  const objects = renderKustomization(join(KUBERNETES, 'overlays', envName, 'contract'));
  const deployed = rendered[`overlays/${envName}`] as Manifest[];

  it('holds one contract Job per app with a database, with the image the overlay deploys, and nothing else', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
      apps.filter((app) => app.database).map((app) => `Job/${app.name}${CONTRACT_JOB_SUFFIX}`).sort(),
    );
    for (const app of apps.filter((a) => a.database)) {
      const [migrate] = podSpec(find(objects, 'Job', `${app.name}${CONTRACT_JOB_SUFFIX}`) as Manifest).containers;
      expect(migrate?.command).toEqual(['node', 'migrate.js', '--phase=contract']);
      expect(migrate?.image).toBe(podSpec(find(deployed, 'Deployment', app.name) as Manifest).containers[0]?.image);
    }
    expect(objects.flatMap(validateManifest)).toEqual([]);
  });
});
