import type { DeployedApp } from './catalog';
import { type EnvVar, migrationEnvironment } from './kubernetes-environment';
import type { Manifest } from './kubernetes';
import { containerSecurity, labels, podSecurity, tmpMount, tmpVolume } from './kubernetes-pod';

export const MIGRATE_CONTAINER = 'migrate';
export const WAIT_FOR_SCHEMA_CONTAINER = 'wait-for-schema';
/** The contract step's Job is `<app>-migrate-contract`, in the overlays' `contract/` kustomizations. */
export const CONTRACT_JOB_SUFFIX = '-migrate-contract';
/**
 * The longest the expand Job may take, all attempts together. A migration waits at most 500 ms for
 * a lock and is retried for several minutes (libs/database run-migrations.ts); an index built
 * CONCURRENTLY on a table of tens of millions of rows takes minutes. An hour covers both with room.
 */
export const MIGRATION_DEADLINE_SECONDS = 3_600;
/** How long a new pod waits in its init container for the expand Job before it restarts and waits again. */
export const SCHEMA_WAIT_SECONDS = 900;

const migrateResources = { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '256Mi' } };

/**
 * A migration Job of an app (docs/migrations.md): `expand` (`<app>-migrate`, applied with the
 * release, before its pods roll) or `contract` (`<app>-migrate-contract`, applied once every pod
 * runs the release). Same image and variables as the app, but the database as its owner
 * (migrationEnvironment): the pods connect as the runtime login.
 */
export function migrationJob(app: DeployedApp, env: EnvVar[], image: string, phase: 'expand' | 'contract'): Manifest {
  const component = phase === 'expand' ? 'migration' : 'migration-contract';
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: phase === 'expand' ? `${app.name}-migrate` : `${app.name}${CONTRACT_JOB_SUFFIX}`,
      labels: labels(app.name, component),
      // Jobs are immutable: delete the finished one before applying a new image (see docker/README.md).
    },
    spec: {
      backoffLimit: 2,
      activeDeadlineSeconds: MIGRATION_DEADLINE_SECONDS,
      ttlSecondsAfterFinished: 86_400,
      template: {
        metadata: { labels: labels(app.name, component) },
        spec: {
          serviceAccountName: app.name,
          automountServiceAccountToken: false,
          restartPolicy: 'Never',
          securityContext: podSecurity,
          containers: [
            {
              name: MIGRATE_CONTAINER,
              image,
              command: ['node', 'migrate.js', `--phase=${phase}`],
              env: migrationEnvironment(app, env),
              resources: migrateResources,
              securityContext: containerSecurity,
              volumeMounts: [tmpMount],
            },
          ],
          volumes: [tmpVolume],
        },
      },
    },
  };
}

/** The init container of an app's pods: waits, reading only, until the expand migrations its image needs are applied. */
export function schemaWaitContainer(env: EnvVar[], image: string) {
  return {
    name: WAIT_FOR_SCHEMA_CONTAINER,
    image,
    command: ['node', 'migrate.js', `--wait-for-schema=${SCHEMA_WAIT_SECONDS}`],
    env,
    resources: migrateResources,
    securityContext: containerSecurity,
    volumeMounts: [tmpMount],
  };
}
