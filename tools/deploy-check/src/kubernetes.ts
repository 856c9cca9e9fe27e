import {
  CONFIG_MAP_NAME,
  CONTAINER_PORT,
  databaseSecretName,
  type DeployedApp,
  OBJECT_STORAGE_SECRET,
  SHARED_VARIABLES,
  serverCommand,
  sharedVariablesFor,
} from './catalog';
import type { Environment } from './environments';

/** A Kubernetes object as plain data. */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
};

export const APP_CONTAINER = 'app';
export const MIGRATE_CONTAINER = 'migrate';
export const TERMINATION_GRACE_SECONDS = 40;
export const PRESTOP_SLEEP_SECONDS = 5;
/** Image name in the base; overlays map it to their registry and tag (`images:`). */
export const baseImage = (app: string) => `erp/${app}`;

const selectorLabels = (app: string) => ({ 'app.kubernetes.io/name': app });
const labels = (app: string, component: string) => ({
  ...selectorLabels(app),
  'app.kubernetes.io/component': component,
  'app.kubernetes.io/part-of': 'erp',
});

type EnvVar = { name: string; value?: string; valueFrom?: Record<string, unknown> };

/** The container environment of an app: shared variables it declares, its database, upstreams. */
export function kubernetesEnvironment(app: DeployedApp, apps: DeployedApp[]): EnvVar[] {
  const env: EnvVar[] = [];
  for (const name of sharedVariablesFor(app, 'kubernetes')) {
    const source = SHARED_VARIABLES[name]?.kubernetes;
    if (!source) continue;
    if ('value' in source) env.push({ name, value: source.value });
    else if ('configMap' in source)
      env.push({ name, valueFrom: { configMapKeyRef: { name: CONFIG_MAP_NAME, key: name } } });
    else env.push({ name, valueFrom: { secretKeyRef: { name: source.secret, key: source.key } } });
  }
  if (app.database) {
    env.push({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: databaseSecretName(app.name), key: 'DATABASE_URL' } },
    });
  }
  if (app.isGateway) {
    for (const upstream of apps) {
      if (upstream.gatewayVariable && app.variables.includes(upstream.gatewayVariable)) {
        env.push({ name: upstream.gatewayVariable, value: `http://${upstream.name}` });
      }
    }
  }
  return env;
}

const containerSecurity = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
};
const podSecurity = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  seccompProfile: { type: 'RuntimeDefault' },
};
const tmpVolume = { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } };
const tmpMount = { name: 'tmp', mountPath: '/tmp' };
/** Memory of an app not measured yet (no `memoryMiB` in the catalog). */
export const DEFAULT_MEMORY_MIB = { request: 192, limit: 384 };

/**
 * Memory is the app's own (measured on the compiled build, in the catalog), the same in every
 * environment: what a process needs does not depend on the cluster. The overlays set the CPU request.
 */
export function appResources(app: DeployedApp) {
  const memory = app.memoryMiB ?? DEFAULT_MEMORY_MIB;
  return { requests: { cpu: '100m', memory: `${memory.request}Mi` }, limits: { memory: `${memory.limit}Mi` } };
}

/** Everything one app runs as, in the base: ServiceAccount, Deployment, Service, HPA, PDB, migration Job. */
export function appManifests(app: DeployedApp, apps: DeployedApp[]): Manifest[] {
  const env = kubernetesEnvironment(app, apps);
  const image = `${baseImage(app.name)}:latest`;
  const command = serverCommand(app);
  const manifests: Manifest[] = [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: app.name, labels: labels(app.name, 'api') },
      automountServiceAccountToken: false,
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: app.name, labels: labels(app.name, 'api') },
      spec: {
        // No `replicas`: the HorizontalPodAutoscaler owns the count (overlays set its bounds).
        revisionHistoryLimit: 5,
        selector: { matchLabels: selectorLabels(app.name) },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        template: {
          metadata: {
            labels: labels(app.name, 'api'),
            annotations: {
              'prometheus.io/scrape': 'true',
              'prometheus.io/port': String(CONTAINER_PORT),
              'prometheus.io/path': '/metrics',
            },
          },
          spec: {
            serviceAccountName: app.name,
            automountServiceAccountToken: false,
            // preStop sleep (endpoints drain) + SHUTDOWN_TIMEOUT_MS (25 s) fit inside it.
            terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
            securityContext: podSecurity,
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'kubernetes.io/hostname',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: selectorLabels(app.name) },
              },
            ],
            containers: [
              {
                name: APP_CONTAINER,
                image,
                ...(command ? { command } : {}),
                ports: [{ name: 'http', containerPort: CONTAINER_PORT, protocol: 'TCP' }],
                env,
                resources: appResources(app),
                startupProbe: {
                  httpGet: { path: '/health/live', port: 'http' },
                  periodSeconds: 2,
                  failureThreshold: 30,
                },
                livenessProbe: {
                  httpGet: { path: '/health/live', port: 'http' },
                  periodSeconds: 10,
                  timeoutSeconds: 2,
                  failureThreshold: 3,
                },
                readinessProbe: {
                  httpGet: { path: '/health/ready', port: 'http' },
                  periodSeconds: 5,
                  timeoutSeconds: 3,
                  failureThreshold: 2,
                },
                // Kubernetes removes the pod from the Service endpoints while SIGTERM is already on its
                // way; the sleep lets kube-proxy and the gateway stop sending before the app stops accepting.
                lifecycle: { preStop: { exec: { command: ['sleep', String(PRESTOP_SLEEP_SECONDS)] } } },
                securityContext: containerSecurity,
                volumeMounts: [tmpMount],
              },
            ],
            volumes: [tmpVolume],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: app.name, labels: labels(app.name, 'api') },
      spec: {
        type: 'ClusterIP',
        selector: selectorLabels(app.name),
        ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
      },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: app.name, labels: labels(app.name, 'api') },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: app.name },
        minReplicas: 2,
        maxReplicas: 6,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 300 } },
      },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: app.name, labels: labels(app.name, 'api') },
      // maxUnavailable (not minAvailable) so a one-replica dev install never blocks a node drain.
      spec: { maxUnavailable: 1, selector: { matchLabels: selectorLabels(app.name) } },
    },
  ];
  if (app.database) {
    manifests.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `${app.name}-migrate`,
        labels: labels(app.name, 'migration'),
        // Jobs are immutable: delete the finished one before applying a new image (see docker/README.md).
      },
      spec: {
        backoffLimit: 3,
        activeDeadlineSeconds: 600,
        ttlSecondsAfterFinished: 86_400,
        template: {
          metadata: { labels: labels(app.name, 'migration') },
          spec: {
            serviceAccountName: app.name,
            automountServiceAccountToken: false,
            restartPolicy: 'Never',
            securityContext: podSecurity,
            containers: [
              {
                name: MIGRATE_CONTAINER,
                image,
                command: ['node', 'migrate.js'],
                env,
                resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '256Mi' } },
                securityContext: containerSecurity,
                volumeMounts: [tmpMount],
              },
            ],
            volumes: [tmpVolume],
          },
        },
      },
    });
  }
  return manifests;
}

/** The overlay's own objects: the shared ConfigMap and, where shipped, the Secrets. */
export function environmentManifests(
  env: Environment,
  apps: DeployedApp[],
): { config: Manifest; secrets: Manifest[] } {
  const configKeys = new Set(
    apps.flatMap((app) =>
      sharedVariablesFor(app, 'kubernetes').filter(
        (name) => 'configMap' in (SHARED_VARIABLES[name]?.kubernetes ?? {}),
      ),
    ),
  );
  const data = Object.fromEntries([...configKeys].sort().map((key) => [key, env.config[key] ?? '']));
  const config: Manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CONFIG_MAP_NAME }, data };
  if (!env.shipsSecrets) return { config, secrets: [] };
  const secrets: Manifest[] = apps
    .filter((app) => app.database)
    .map((app) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: databaseSecretName(app.name) },
      type: 'Opaque',
      stringData: {
        DATABASE_URL: `postgres://erp:erp-dev-password@postgres.${env.namespace}.svc:5432/${app.database}`,
      },
    }));
  if (apps.some((app) => sharedVariablesFor(app, 'kubernetes').some((name) => name.startsWith('S3_')))) {
    secrets.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: OBJECT_STORAGE_SECRET },
      type: 'Opaque',
      stringData: { 'access-key-id': 'erp-dev', 'secret-access-key': 'erp-dev-minio-secret' },
    });
  }
  return { config, secrets };
}

/** Per-environment patches, written once for every app (targets select by kind). */
export function environmentPatches(
  env: Environment,
): Array<{ file: string; target: { kind: string }; patch: Manifest }> {
  return [
    {
      file: 'deployment-resources.yaml',
      target: { kind: 'Deployment' },
      patch: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'every-deployment' },
        spec: { template: { spec: { containers: [{ name: APP_CONTAINER, resources: env.resources }] } } },
      },
    },
    {
      file: 'autoscaling.yaml',
      target: { kind: 'HorizontalPodAutoscaler' },
      patch: {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'every-autoscaler' },
        spec: { minReplicas: env.minReplicas, maxReplicas: env.maxReplicas },
      },
    },
  ];
}
