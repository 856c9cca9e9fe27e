import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '@erp/bootstrap';
import { CONTAINER_PORT, deployedApps, MIGRATE_VARIABLES, REPO_ROOT } from './catalog';
import { contractServiceName, migrationServiceName } from './compose';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  secrets?: string[];
  ports?: string[];
  [key: string]: unknown;
}

const compose = parse(readFileSync(join(REPO_ROOT, 'docker', 'compose.yaml'), 'utf8')) as {
  services: Record<string, ComposeService>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const apps = deployedApps();

describe('docker/compose.yaml', () => {
  it('runs real Kafka in KRaft mode (no ZooKeeper), PostgreSQL and MinIO', () => {
    expect(services.kafka?.image).toMatch(/^(apache\/kafka|bitnami\/kafka):/);
    expect(services.kafka?.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(services.kafka?.environment?.KAFKA_CONTROLLER_QUORUM_VOTERS).toBeDefined();
    expect(Object.keys(services).filter((name) => /zookeeper/i.test(name))).toEqual([]);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.minio?.image).toMatch(/^minio\/minio:/);
    for (const name of ['kafka', 'postgres', 'minio']) expect(services[name]?.healthcheck).toBeDefined();
  });

  it('points every depends_on, secret and volume at something it defines', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect([name, dependency, dependency in services]).toEqual([name, dependency, true]);
      for (const secret of service.secrets ?? []) expect(compose.secrets).toHaveProperty([secret]);
      for (const volume of (service.volumes as string[] | undefined) ?? [])
        expect(compose.volumes).toHaveProperty([volume.split(':')[0] as string]);
    }
  });

  it('creates the database of every service', () => {
    const command = (services.databases?.command as string[]).join(' ');
    for (const app of apps.filter((a) => a.database))
      expect(command).toContain(`CREATE DATABASE ${app.database}`);
  });

  describe.each(apps.map((app) => [app.name, app] as const))('%s', (name, app) => {
    const service = services[name] as ComposeService;

    it('has a service built from docker/Dockerfile with its APP', () => {
      expect(service).toBeDefined();
      expect(service.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile', args: { APP: name } });
    });

    it("runs the image's server, with the catalog's Node flags when it has any", () => {
      if (app.nodeArgs.length === 0) return expect(service.command).toBeUndefined();
      expect(service.command).toEqual(['node', ...app.nodeArgs, 'main.js']);
    });

    it(
      app.database ? 'starts only after its migration succeeded' : 'has no database and no migration',
      () => {
        const migration = services[migrationServiceName(name)];
        if (!app.database) return expect(migration).toBeUndefined();
        expect(service.depends_on?.[migrationServiceName(name)]).toEqual({
          condition: 'service_completed_successfully',
        });
        expect(migration?.command).toEqual(['node', 'migrate.js', '--phase=expand']);
        expect(migration?.image).toBe(service.image);
        expect(migration?.depends_on?.databases).toEqual({ condition: 'service_completed_successfully' });
        // The contract step once this version of the app serves (docs/migrations.md).
        const contract = services[contractServiceName(name)];
        expect(contract?.command).toEqual(['node', 'migrate.js', '--phase=contract']);
        expect(contract?.image).toBe(service.image);
        expect(contract?.depends_on).toEqual({ [name]: { condition: 'service_healthy' } });
        expect(service.environment?.DATABASE_URL).toMatch(
          new RegExp(`^postgres://[^@]+@postgres:5432/${app.database}$`),
        );
        // Two logins (docs/platform-teams.md): the migrations as the owner, granting the app's.
        const appLogin = new URL(service.environment?.DATABASE_URL as string).username;
        const migrationLogin = new URL(migration?.environment?.DATABASE_URL as string).username;
        expect(migrationLogin).not.toBe(appLogin);
        expect(migration?.environment?.DATABASE_RUNTIME_LOGIN).toBe(appLogin);
        expect(contract?.environment).toEqual(migration?.environment);
      },
    );

    it('sets only variables its config class declares, and they pass its validation', () => {
      for (const container of [service, services[migrationServiceName(name)]].filter(
        Boolean,
      ) as ComposeService[]) {
        const env = container.environment ?? {};
        const declared = container === service ? app.variables : [...app.variables, ...MIGRATE_VARIABLES];
        expect(Object.keys(env).filter((variable) => !declared.includes(variable))).toEqual([]);
        expect(() => loadConfig(app.configClass, env)).not.toThrow();
        expect(env.PORT).toBe(String(CONTAINER_PORT));
      }
    });

    it('waits for the infrastructure it uses', () => {
      if (app.variables.includes('KAFKA_BROKERS'))
        expect(service.depends_on?.kafka).toEqual({ condition: 'service_healthy' });
      if (app.variables.some((v) => v.startsWith('S3_')))
        expect(service.depends_on).toHaveProperty(['minio-buckets']);
    });
  });

  it('gives the gateway the URL of every upstream it has a variable for, and publishes it', () => {
    const gateway = apps.find((app) => app.isGateway);
    const service = services[gateway?.name as string] as ComposeService;
    for (const upstream of apps.filter(
      (app) => app.gatewayVariable && gateway?.variables.includes(app.gatewayVariable),
    )) {
      expect(service.environment?.[upstream.gatewayVariable as string]).toBe(
        `http://${upstream.name}:${CONTAINER_PORT}`,
      );
      expect(service.depends_on?.[upstream.name]).toEqual({ condition: 'service_healthy' });
    }
    expect(service.ports).toEqual([`3000:${CONTAINER_PORT}`]);
  });
});
