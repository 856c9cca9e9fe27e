import { CONTAINER_PORT, type DeployedApp, METRICS_PORT, serverCommand } from './catalog';
import { APP_CONTAINER, kubernetesEnvironment } from './kubernetes-environment';
import { migrationJob, schemaWaitContainer } from './kubernetes-migrations';
import { containerSecurity, labels, podSecurity, selectorLabels, tmpMount, tmpVolume } from './kubernetes-pod';
import { HTTP_PORT_NAME, METRICS_PORT_NAME } from './network-policies';

/** A Kubernetes object as plain data. */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
};

export { APP_CONTAINER } from './kubernetes-environment';
export { labels, selectorLabels } from './kubernetes-pod';
export { CONTRACT_JOB_SUFFIX, MIGRATE_CONTAINER, WAIT_FOR_SCHEMA_CONTAINER } from './kubernetes-migrations';
export const TERMINATION_GRACE_SECONDS = 40;
export const PRESTOP_SLEEP_SECONDS = 5;
/** Image name in the base; overlays map it to their registry and tag (`images:`). */
export const baseImage = (app: string) => `erp/${app}`;

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
            // For clusters scraping by annotation (no Prometheus Operator): the metrics port, which
            // no Service exposes; the PodMonitors (components/monitoring) scrape the same port.
            annotations: {
              'prometheus.io/scrape': 'true',
              'prometheus.io/port': String(METRICS_PORT),
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
            // The schema gate: a pod of a new release starts only once its expand migrations are applied.
            ...(app.database ? { initContainers: [schemaWaitContainer(env, image)] } : {}),
            containers: [
              {
                name: APP_CONTAINER,
                image,
                ...(command ? { command } : {}),
                ports: [
                  { name: HTTP_PORT_NAME, containerPort: CONTAINER_PORT, protocol: 'TCP' },
                  { name: METRICS_PORT_NAME, containerPort: METRICS_PORT, protocol: 'TCP' },
                ],
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
        // The API port only: the metrics port stays off the Service (the gateway's is the public one).
        ports: [{ name: HTTP_PORT_NAME, port: 80, targetPort: HTTP_PORT_NAME, protocol: 'TCP' }],
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
  if (app.database) manifests.push(migrationJob(app, env, image, 'expand'));
  return manifests;
}

