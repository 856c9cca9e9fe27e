import { CONTAINER_PORT, type DeployedApp, serverCommand, SHARED_VARIABLES, sharedVariablesFor, upstreamsOf } from './catalog';

const POSTGRES_IMAGE = 'postgres:17-alpine';
const KAFKA_IMAGE = 'apache/kafka:3.9.1';
const MINIO_IMAGE = 'minio/minio:RELEASE.2025-04-22T22-12-26Z';
const MINIO_CLIENT_IMAGE = 'minio/mc:RELEASE.2025-04-16T18-13-26Z';
const POSTGRES_USER = 'erp';
const POSTGRES_PASSWORD = 'erp';
/** The login the apps connect as (docs/platform-teams.md, "Database logins"); the migrations as POSTGRES_USER. */
const RUNTIME_LOGIN = 'erp_runtime';
const RUNTIME_PASSWORD = 'erp-runtime';
const GATEWAY_HOST_PORT = 3000;

export const migrationServiceName = (app: string) => `${app}-migrate`;
export const contractServiceName = (app: string) => `${app}-migrate-contract`;
export const imageName = (app: string) => `erp/${app}:local`;

type ComposeService = Record<string, unknown>;

/**
 * Environment of an app's containers in compose: shared variables it declares, its database as the
 * runtime login, upstreams.
 */
export function composeEnvironment(app: DeployedApp, apps: DeployedApp[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of sharedVariablesFor(app, 'compose'))
    env[name] = SHARED_VARIABLES[name]?.compose as string;
  if (app.database)
    env.DATABASE_URL = `postgres://${RUNTIME_LOGIN}:${RUNTIME_PASSWORD}@postgres:5432/${app.database}`;
  // The gateway calls every service; a service the ones it names in the catalog's `calls`.
  for (const upstream of upstreamsOf(app, apps)) env[upstream.variable] = `http://${upstream.app.name}:${CONTAINER_PORT}`;
  return env;
}

/**
 * docker/compose.yaml: real Kafka (KRaft, one node), PostgreSQL (one database per service and the
 * apps' runtime login, made by the one-shot `databases`), MinIO with its bucket, and every app
 * built from docker/Dockerfile.
 * Each app with a database starts only after its `<app>-migrate` one-shot succeeded.
 */
export function composeFile(apps: DeployedApp[]): Record<string, unknown> {
  const databases = apps.flatMap((app) => (app.database ? [app.database] : []));
  const createDatabases = [
    ...databases.map(
      (name) =>
        `SELECT 'CREATE DATABASE ${name}' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${name}')\\gexec`,
    ),
    // The runtime login: owns nothing, inherits nothing; each migration grants it its two roles.
    `SELECT 'CREATE ROLE ${RUNTIME_LOGIN} LOGIN NOINHERIT PASSWORD ''${RUNTIME_PASSWORD}''' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${RUNTIME_LOGIN}')\\gexec`,
  ].join('\n');
  const services: Record<string, ComposeService> = {
    postgres: {
      image: POSTGRES_IMAGE,
      environment: { POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB: 'postgres' },
      volumes: ['postgres-data:/var/lib/postgresql/data'],
      healthcheck: {
        test: ['CMD-SHELL', `pg_isready -U ${POSTGRES_USER} -d postgres`],
        interval: '5s',
        timeout: '3s',
        retries: 20,
      },
    },
    databases: {
      image: POSTGRES_IMAGE,
      depends_on: { postgres: { condition: 'service_healthy' } },
      environment: {
        PGHOST: 'postgres',
        PGUSER: POSTGRES_USER,
        PGPASSWORD: POSTGRES_PASSWORD,
        PGDATABASE: 'postgres',
      },
      command: ['sh', '-c', `psql -v ON_ERROR_STOP=1 <<'SQL'\n${createDatabases}\nSQL\n`],
      restart: 'no',
    },
    kafka: {
      image: KAFKA_IMAGE,
      environment: {
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://kafka:9092',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@kafka:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
        KAFKA_LOG_DIRS: '/var/lib/kafka/data',
      },
      volumes: ['kafka-data:/var/lib/kafka/data'],
      healthcheck: {
        test: [
          'CMD-SHELL',
          '/opt/kafka/bin/kafka-broker-api-versions.sh --bootstrap-server localhost:9092 >/dev/null 2>&1',
        ],
        interval: '10s',
        timeout: '10s',
        retries: 12,
        start_period: '20s',
      },
    },
    minio: {
      image: MINIO_IMAGE,
      command: ['server', '/data', '--console-address', ':9001'],
      environment: {
        MINIO_ROOT_USER: SHARED_VARIABLES.S3_ACCESS_KEY_ID?.compose,
        MINIO_ROOT_PASSWORD: SHARED_VARIABLES.S3_SECRET_ACCESS_KEY?.compose,
      },
      ports: ['127.0.0.1:9001:9001'],
      volumes: ['minio-data:/data'],
      healthcheck: { test: ['CMD', 'mc', 'ready', 'local'], interval: '5s', timeout: '3s', retries: 20 },
    },
    'minio-buckets': {
      image: MINIO_CLIENT_IMAGE,
      depends_on: { minio: { condition: 'service_healthy' } },
      entrypoint: [
        'sh',
        '-c',
        `mc alias set local http://minio:9000 "$$MINIO_ROOT_USER" "$$MINIO_ROOT_PASSWORD" && mc mb --ignore-existing local/${SHARED_VARIABLES.S3_BUCKET?.compose}`,
      ],
      environment: {
        MINIO_ROOT_USER: SHARED_VARIABLES.S3_ACCESS_KEY_ID?.compose,
        MINIO_ROOT_PASSWORD: SHARED_VARIABLES.S3_SECRET_ACCESS_KEY?.compose,
      },
      restart: 'no',
    },
  };

  for (const app of apps) {
    const environment = composeEnvironment(app, apps);
    const build = { context: '..', dockerfile: 'docker/Dockerfile', args: { APP: app.name } };
    const infrastructure = infrastructureDependencies(app);
    const secrets = environment.AUTH_PUBLIC_KEY_FILE ? ['auth_public_key'] : undefined;
    if (app.database) {
      // The migrations run as the owner and grant the runtime login its roles.
      const migrationEnvironment = {
        ...environment,
        DATABASE_URL: `postgres://${POSTGRES_USER}:${POSTGRES_PASSWORD}@postgres:5432/${app.database}`,
        DATABASE_RUNTIME_LOGIN: RUNTIME_LOGIN,
      };
      services[migrationServiceName(app.name)] = {
        build,
        image: imageName(app.name),
        command: ['node', 'migrate.js', '--phase=expand'],
        environment: migrationEnvironment,
        ...(secrets ? { secrets } : {}),
        depends_on: { databases: { condition: 'service_completed_successfully' } },
        restart: 'no',
      };
      // The contract step once the app of this version serves (docs/migrations.md).
      services[contractServiceName(app.name)] = {
        image: imageName(app.name),
        command: ['node', 'migrate.js', '--phase=contract'],
        environment: migrationEnvironment,
        ...(secrets ? { secrets } : {}),
        depends_on: { [app.name]: { condition: 'service_healthy' } },
        restart: 'no',
      };
    }
    const dependsOn: Record<string, { condition: string }> = { ...infrastructure };
    if (app.database)
      dependsOn[migrationServiceName(app.name)] = { condition: 'service_completed_successfully' };
    if (app.isGateway) {
      for (const upstream of apps) {
        if (upstream.gatewayVariable && environment[upstream.gatewayVariable])
          dependsOn[upstream.name] = { condition: 'service_healthy' };
      }
    }
    const command = serverCommand(app);
    services[app.name] = {
      build,
      image: imageName(app.name),
      ...(command ? { command } : {}),
      environment,
      ...(secrets ? { secrets } : {}),
      ...(Object.keys(dependsOn).length ? { depends_on: dependsOn } : {}),
      ...(app.isGateway ? { ports: [`${GATEWAY_HOST_PORT}:${CONTAINER_PORT}`] } : {}),
      read_only: true,
      tmpfs: ['/tmp'],
      stop_grace_period: '30s',
      restart: 'unless-stopped',
    };
  }

  return {
    name: 'erp',
    services,
    secrets: { auth_public_key: { file: '../.data/dev-keys/dev-public.pem' } },
    volumes: { 'postgres-data': {}, 'kafka-data': {}, 'minio-data': {} },
  };
}

function infrastructureDependencies(app: DeployedApp): Record<string, { condition: string }> {
  const needs: Record<string, { condition: string }> = {};
  if (app.variables.includes('KAFKA_BROKERS')) needs.kafka = { condition: 'service_healthy' };
  if (app.variables.some((name) => name.startsWith('S3_')))
    needs['minio-buckets'] = { condition: 'service_completed_successfully' };
  return needs;
}
