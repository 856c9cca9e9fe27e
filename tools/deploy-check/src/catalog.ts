import { resolve } from 'node:path';
import { GATEWAY, SERVICES, type ServiceSpec } from '@erp/dev';
import { type ConfigClass, configVariables, loadConfigClass } from './config-variables';

/** The repository root (tools/deploy-check/src -> ../../..). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/** Port every container listens on (the image sets PORT; compose and Kubernetes repeat it). */
export const CONTAINER_PORT = 8080;

/** One deployable app: the catalog entry of tools/dev plus what its config class declares. */
export interface DeployedApp {
  name: string;
  dir: string;
  /** Database name (one per service); such an app has a migration step. */
  database?: string;
  /** The gateway's variable holding this app's URL. */
  gatewayVariable?: string;
  isGateway: boolean;
  /** Node/V8 flags the server runs with (ServiceSpec.nodeArgs); empty: the image's `node main.js`. */
  nodeArgs: string[];
  /** Container memory in MiB from measurements (ServiceSpec.memoryMiB); absent: the default. */
  memoryMiB?: { request: number; limit: number };
  /** Apps whose internal HTTP API this one calls (ServiceSpec.calls); the gateway calls every service. */
  calls: string[];
  configClass: ConfigClass;
  /** Every variable the config class reads. */
  variables: string[];
}

/**
 * Every app deployed, from the catalog `npm start` uses (tools/dev/src/services.ts): adding a service
 * there and running `npm run deploy:generate` adds it to compose.yaml and the Kubernetes manifests.
 */
export function deployedApps(
  rootDir: string = REPO_ROOT,
  services: ServiceSpec[] = [...SERVICES, GATEWAY],
): DeployedApp[] {
  const names = services.map((spec) => spec.name);
  return services.map((spec) => {
    const configClass = loadConfigClass(rootDir, spec.dir);
    const unknown = (spec.calls ?? []).filter((callee) => !names.includes(callee) || callee === spec.name);
    if (unknown.length > 0) throw new Error(`${spec.name}: calls ${unknown.join(', ')}, not another app of the catalog`);
    const isGateway = spec.name === GATEWAY.name;
    return {
      name: spec.name,
      dir: spec.dir,
      database: spec.database,
      gatewayVariable: spec.gatewayVariable,
      isGateway,
      nodeArgs: spec.nodeArgs ?? [],
      calls: isGateway ? services.filter((other) => other.gatewayVariable).map((other) => other.name) : [...(spec.calls ?? [])],
      ...(spec.memoryMiB ? { memoryMiB: spec.memoryMiB } : {}),
      configClass,
      variables: configVariables(configClass),
    };
  });
}

/**
 * The server's command when the app has Node flags (the image's CMD is `node main.js` for every
 * app); undefined otherwise, so the image's CMD applies.
 */
export function serverCommand(app: DeployedApp): string[] | undefined {
  return app.nodeArgs.length > 0 ? ['node', ...app.nodeArgs, 'main.js'] : undefined;
}

/** Port of the metrics listener (METRICS_PORT) in every container; the Services do not expose it. */
export const METRICS_PORT = 9464;

/**
 * Where Kubernetes takes a variable from. An `optional` Secret key may be missing, Secret and all
 * (Kubernetes then leaves the variable unset): static object-storage keys where the pods use
 * workload identity, Kafka SASL where the cluster has none.
 */
export type KubernetesSource =
  | { configMap: true }
  | { secret: string; key: string; optional?: boolean }
  | { value: string };

/**
 * Variables of the shared infrastructure. An app receives one only when its config class declares
 * it, so a service that starts using Kafka or object storage gets the variable on the next
 * `npm run deploy:generate`. `compose` is the value in compose.yaml (absent: not set there);
 * `kubernetes` says where the manifests take it from (`configMap`: the overlay's `erp-config`,
 * whose values live in environments.ts). SASL for Kafka, for instance, is one more entry here
 * (`KAFKA_SASL_PASSWORD: { kubernetes: { secret: ..., key: ... } }`) plus its ConfigMap values.
 */
export interface SharedVariable {
  compose?: string;
  kubernetes?: KubernetesSource;
}

export const CONFIG_MAP_NAME = 'erp-config';
export const OBJECT_STORAGE_SECRET = 'erp-object-storage';
export const KAFKA_SASL_SECRET = 'erp-kafka-sasl';
/** The internal API's shared secret (docs/cross-service-reads.md), for the services that serve or call one. */
export const INTERNAL_API_SECRET_NAME = 'erp-internal-api';

export const SHARED_VARIABLES: Record<string, SharedVariable> = {
  HOST: { compose: '0.0.0.0', kubernetes: { value: '0.0.0.0' } },
  PORT: { compose: String(CONTAINER_PORT), kubernetes: { value: String(CONTAINER_PORT) } },
  // /metrics on a port of its own, which no Service exposes (the gateway's public port never serves it).
  METRICS_PORT: { compose: String(METRICS_PORT), kubernetes: { value: String(METRICS_PORT) } },
  DATABASE_POOL_SIZE: { kubernetes: { configMap: true } },
  LOG_LEVEL: { compose: 'info', kubernetes: { configMap: true } },
  // Below Kubernetes' terminationGracePeriodSeconds (40) minus the preStop sleep (5).
  SHUTDOWN_TIMEOUT_MS: { compose: '25000', kubernetes: { value: '25000' } },
  AUTH_ISSUER: { compose: 'erp-dev', kubernetes: { configMap: true } },
  AUTH_AUDIENCE: { compose: 'erp-api', kubernetes: { configMap: true } },
  // compose trusts the dev key of `npm run token` (a compose secret); clusters use the identity provider.
  AUTH_PUBLIC_KEY_FILE: { compose: '/run/secrets/auth_public_key' },
  AUTH_JWKS_URL: { kubernetes: { configMap: true } },
  KAFKA_BROKERS: { compose: 'kafka:9092', kubernetes: { configMap: true } },
  KAFKA_SSL: { kubernetes: { configMap: true } },
  // SASL only where the cluster has it: no Secret, no SASL.
  KAFKA_SASL_MECHANISM: { kubernetes: { secret: KAFKA_SASL_SECRET, key: 'mechanism', optional: true } },
  KAFKA_SASL_USERNAME: { kubernetes: { secret: KAFKA_SASL_SECRET, key: 'username', optional: true } },
  KAFKA_SASL_PASSWORD: { kubernetes: { secret: KAFKA_SASL_SECRET, key: 'password', optional: true } },
  // Service-to-service calls: only the services whose config declares it get it (never the gateway).
  // compose runs on a developer's machine with a fixed throw-away value; clusters take it from a Secret.
  INTERNAL_API_SECRET: { compose: 'compose-only-internal-api-secret-0123456789', kubernetes: { secret: INTERNAL_API_SECRET_NAME, key: 'secret' } },
  INTERNAL_API_PREVIOUS_SECRET: { kubernetes: { secret: INTERNAL_API_SECRET_NAME, key: 'previous-secret', optional: true } },
  // Tracing: the overlay's collector; sampling per environment.
  OTEL_EXPORTER_OTLP_ENDPOINT: { kubernetes: { configMap: true } },
  OTEL_TRACES_SAMPLER: { kubernetes: { configMap: true } },
  OTEL_TRACES_SAMPLER_ARG: { kubernetes: { configMap: true } },
  // Object storage (attachments-v1): MinIO in compose, S3 or MinIO in clusters; never the local disk.
  STORAGE_DRIVER: { compose: 's3', kubernetes: { value: 's3' } },
  S3_ENDPOINT: { compose: 'http://minio:9000', kubernetes: { configMap: true } },
  S3_REGION: { compose: 'us-east-1', kubernetes: { configMap: true } },
  S3_BUCKET: { compose: 'erp-attachments', kubernetes: { configMap: true } },
  S3_FORCE_PATH_STYLE: { compose: 'true', kubernetes: { configMap: true } },
  // Static keys are optional: without the Secret the SDK's default chain applies (IRSA, workload identity).
  S3_ACCESS_KEY_ID: {
    compose: 'erp',
    kubernetes: { secret: OBJECT_STORAGE_SECRET, key: 'access-key-id', optional: true },
  },
  S3_SECRET_ACCESS_KEY: {
    compose: 'erp-minio-secret',
    kubernetes: { secret: OBJECT_STORAGE_SECRET, key: 'secret-access-key', optional: true },
  },
};

/**
 * Secret holding an app's DATABASE_URL (key `DATABASE_URL`, the runtime login's) and, behind a
 * transaction-mode pooler, DATABASE_SESSION_URL (optional key: a direct session for LISTEN
 * wake-ups). Its pods and their init container read it.
 */
export const databaseSecretName = (app: string) => `${app}-database`;

/**
 * Secret of an app's migration Jobs only (docs/platform-teams.md, "Database logins"): the owner's
 * DATABASE_URL, and DATABASE_RUNTIME_LOGIN (optional: the login of `<app>-database`, which the Job
 * grants the request and service roles). The pods never mount it.
 */
export const databaseOwnerSecretName = (app: string) => `${app}-database-owner`;

/** What a migration Job reads beyond its app's config class (MigrateConfig of @erp/bootstrap). */
export const MIGRATE_VARIABLES = ['DATABASE_RUNTIME_LOGIN'];

/** The apps this one calls whose URL variable its config declares, with that variable. */
export function upstreamsOf(app: DeployedApp, apps: DeployedApp[]): Array<{ app: DeployedApp; variable: string }> {
  return apps.flatMap((callee) =>
    app.calls.includes(callee.name) && callee.gatewayVariable && app.variables.includes(callee.gatewayVariable)
      ? [{ app: callee, variable: callee.gatewayVariable }]
      : [],
  );
}

/** Names of the variables set for an app, in a stable order. */
export function sharedVariablesFor(app: DeployedApp, target: 'compose' | 'kubernetes'): string[] {
  return Object.keys(SHARED_VARIABLES).filter(
    (name) => app.variables.includes(name) && SHARED_VARIABLES[name]?.[target] !== undefined,
  );
}
