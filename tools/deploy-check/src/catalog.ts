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
  return services.map((spec) => {
    const configClass = loadConfigClass(rootDir, spec.dir);
    return {
      name: spec.name,
      dir: spec.dir,
      database: spec.database,
      gatewayVariable: spec.gatewayVariable,
      isGateway: spec.name === GATEWAY.name,
      nodeArgs: spec.nodeArgs ?? [],
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

/** Where Kubernetes takes a variable from. */
export type KubernetesSource = { configMap: true } | { secret: string; key: string } | { value: string };

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

export const SHARED_VARIABLES: Record<string, SharedVariable> = {
  HOST: { compose: '0.0.0.0', kubernetes: { value: '0.0.0.0' } },
  PORT: { compose: String(CONTAINER_PORT), kubernetes: { value: String(CONTAINER_PORT) } },
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
  // Object storage (attachments-v1): MinIO in compose, S3 or MinIO in clusters; never the local disk.
  STORAGE_DRIVER: { compose: 's3', kubernetes: { value: 's3' } },
  S3_ENDPOINT: { compose: 'http://minio:9000', kubernetes: { configMap: true } },
  S3_REGION: { compose: 'us-east-1', kubernetes: { configMap: true } },
  S3_BUCKET: { compose: 'erp-attachments', kubernetes: { configMap: true } },
  S3_FORCE_PATH_STYLE: { compose: 'true', kubernetes: { configMap: true } },
  S3_ACCESS_KEY_ID: { compose: 'erp', kubernetes: { secret: OBJECT_STORAGE_SECRET, key: 'access-key-id' } },
  S3_SECRET_ACCESS_KEY: {
    compose: 'erp-minio-secret',
    kubernetes: { secret: OBJECT_STORAGE_SECRET, key: 'secret-access-key' },
  },
};

/** Secret holding an app's DATABASE_URL (key `DATABASE_URL`). */
export const databaseSecretName = (app: string) => `${app}-database`;

/** Names of the variables set for an app, in a stable order. */
export function sharedVariablesFor(app: DeployedApp, target: 'compose' | 'kubernetes'): string[] {
  return Object.keys(SHARED_VARIABLES).filter(
    (name) => app.variables.includes(name) && SHARED_VARIABLES[name]?.[target] !== undefined,
  );
}
