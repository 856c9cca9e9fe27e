import {
  CONFIG_MAP_NAME,
  databaseOwnerSecretName,
  databaseSecretName,
  type DeployedApp,
  INTERNAL_API_SECRET_NAME,
  OBJECT_STORAGE_SECRET,
  SHARED_VARIABLES,
  sharedVariablesFor,
  upstreamsOf,
} from './catalog';
import type { Environment } from './environments';
import type { Manifest } from './kubernetes';

export type EnvVar = { name: string; value?: string; valueFrom?: Record<string, unknown> };

export const APP_CONTAINER = 'app';

/**
 * The container environment of an app: the shared variables it declares, its database (and the
 * optional session URL beside it, for a transaction-mode pooler), the services it calls.
 */
export function kubernetesEnvironment(app: DeployedApp, apps: DeployedApp[]): EnvVar[] {
  const env: EnvVar[] = [];
  for (const name of sharedVariablesFor(app, 'kubernetes')) {
    const source = SHARED_VARIABLES[name]?.kubernetes;
    if (!source) continue;
    if ('value' in source) env.push({ name, value: source.value });
    else if ('configMap' in source)
      env.push({ name, valueFrom: { configMapKeyRef: { name: CONFIG_MAP_NAME, key: name } } });
    else {
      const { secret, key, optional } = source;
      env.push({ name, valueFrom: { secretKeyRef: { name: secret, key, ...(optional ? { optional: true } : {}) } } });
    }
  }
  if (app.database) {
    env.push({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: databaseSecretName(app.name), key: 'DATABASE_URL' } },
    });
    if (app.variables.includes('DATABASE_SESSION_URL')) {
      // Only behind a transaction-mode pooler: a direct session for LISTEN (docs/platform-teams.md).
      env.push({
        name: 'DATABASE_SESSION_URL',
        valueFrom: { secretKeyRef: { name: databaseSecretName(app.name), key: 'DATABASE_SESSION_URL', optional: true } },
      });
    }
  }
  for (const upstream of upstreamsOf(app, apps)) env.push({ name: upstream.variable, value: `http://${upstream.app.name}` });
  return env;
}

/**
 * A migration Job's environment: the app's, but its database as the owner (`<app>-database-owner`),
 * with the runtime login to grant, and no LISTEN session.
 */
export function migrationEnvironment(app: DeployedApp, env: EnvVar[]): EnvVar[] {
  const owner = databaseOwnerSecretName(app.name);
  return [
    ...env.filter((variable) => variable.name !== 'DATABASE_URL' && variable.name !== 'DATABASE_SESSION_URL'),
    { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: owner, key: 'DATABASE_URL' } } },
    { name: 'DATABASE_RUNTIME_LOGIN', valueFrom: { secretKeyRef: { name: owner, key: 'DATABASE_RUNTIME_LOGIN', optional: true } } },
  ];
}

/** The dev overlay's logins: the owner that migrates, and the runtime login the pods connect as. */
export const DEV_DATABASE_OWNER = { user: 'erp', password: 'erp-dev-password' };
export const DEV_DATABASE_RUNTIME = { user: 'erp_runtime', password: 'erp-dev-runtime-password' };

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
  const databaseUrl = (login: { user: string; password: string }, database: string) =>
    `postgres://${login.user}:${login.password}@postgres.${env.namespace}.svc:5432/${database}`;
  const secrets: Manifest[] = apps
    .filter((app) => app.database)
    .flatMap((app) => [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: databaseSecretName(app.name) },
        type: 'Opaque',
        stringData: { DATABASE_URL: databaseUrl(DEV_DATABASE_RUNTIME, app.database as string) },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: databaseOwnerSecretName(app.name) },
        type: 'Opaque',
        stringData: { DATABASE_URL: databaseUrl(DEV_DATABASE_OWNER, app.database as string), DATABASE_RUNTIME_LOGIN: DEV_DATABASE_RUNTIME.user },
      },
    ]);
  if (apps.some((app) => sharedVariablesFor(app, 'kubernetes').some((name) => name.startsWith('S3_')))) {
    secrets.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: OBJECT_STORAGE_SECRET },
      type: 'Opaque',
      stringData: { 'access-key-id': 'erp-dev', 'secret-access-key': 'erp-dev-minio-secret' },
    });
  }
  if (apps.some((app) => app.variables.includes('INTERNAL_API_SECRET'))) {
    secrets.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: INTERNAL_API_SECRET_NAME },
      type: 'Opaque',
      stringData: { secret: 'erp-dev-internal-api-secret-not-for-production' },
    });
  }
  return { config, secrets };
}

type Patch = { file: string; target: { kind: string; name?: string; labelSelector?: string }; patch: Manifest };
/** The apps' workloads, not what a component adds beside them (PgBouncer). */
const APPS_ONLY = 'app.kubernetes.io/component=api';

/** Per-environment patches: resources and autoscaling for every app, ServiceAccount annotations for some. */
export function environmentPatches(env: Environment): Patch[] {
  const patches: Patch[] = [
    {
      file: 'deployment-resources.yaml',
      target: { kind: 'Deployment', labelSelector: APPS_ONLY },
      patch: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'every-deployment' },
        spec: { template: { spec: { containers: [{ name: APP_CONTAINER, resources: env.resources }] } } },
      },
    },
    {
      file: 'autoscaling.yaml',
      target: { kind: 'HorizontalPodAutoscaler', labelSelector: APPS_ONLY },
      patch: {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'every-autoscaler' },
        spec: { minReplicas: env.minReplicas, maxReplicas: env.maxReplicas },
      },
    },
  ];
  for (const [app, annotations] of Object.entries(env.serviceAccountAnnotations)) {
    patches.push({
      file: `${app}-service-account.yaml`,
      target: { kind: 'ServiceAccount', name: app },
      patch: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: app, annotations } },
    });
  }
  return patches;
}
