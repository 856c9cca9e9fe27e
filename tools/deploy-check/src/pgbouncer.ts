import { DEV_DATABASE_OWNER, DEV_DATABASE_RUNTIME } from './kubernetes-environment';
import type { Environment } from './environments';
import type { Manifest } from './kubernetes';

export const PGBOUNCER = 'pgbouncer';
export const PGBOUNCER_PORT = 6432;
/** A maintained PgBouncer image that runs `pgbouncer <ini>`; the overlay's `images:` may replace it. */
export const PGBOUNCER_IMAGE = 'edoburu/pgbouncer:v1.25.1-p0';
export const PGBOUNCER_USERLIST_SECRET = 'pgbouncer-userlist';

const labels = { 'app.kubernetes.io/name': PGBOUNCER, 'app.kubernetes.io/component': 'pooler', 'app.kubernetes.io/part-of': 'erp' };
const select = { 'app.kubernetes.io/name': PGBOUNCER };

/**
 * pgbouncer.ini: transaction mode in front of the environment's PostgreSQL, every database by
 * name (`*`), SCRAM logins from the userlist Secret. The services need nothing of the pooler
 * beyond that (docs/platform-teams.md "Behind a connection pooler"): no startup parameter but
 * application_name, prepared statements kept (`max_prepared_statements`), LISTEN through DATABASE_SESSION_URL.
 */
export function pgbouncerIni(env: Environment): string {
  return [
    '[databases]',
    `* = host=${env.pooler.serverHost} port=${env.pooler.serverPort}`,
    '',
    '[pgbouncer]',
    'listen_addr = 0.0.0.0',
    `listen_port = ${PGBOUNCER_PORT}`,
    'unix_socket_dir = /tmp',
    'pool_mode = transaction',
    'auth_type = scram-sha-256',
    'auth_file = /etc/pgbouncer/auth/userlist.txt',
    'max_client_conn = 2000',
    'default_pool_size = 20',
    'server_tls_sslmode = prefer',
    // The services' list statements run prepared (DATABASE_PREPARED_STATEMENTS, default true):
    // PgBouncer keeps them per server session (1.21+; 200 is its default since 1.22, set so it shows).
    'max_prepared_statements = 200',
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
}

/**
 * The overlay's optional `pgbouncer` component: the pooler's Deployment, Service, disruption
 * budget and configuration, and the network policies that let the apps reach it and it reach
 * PostgreSQL. With it, each `<app>-database` Secret's DATABASE_URL points at
 * `pgbouncer:6432` and DATABASE_SESSION_URL at the server (docker/README.md).
 */
export function pgbouncerComponent(env: Environment): Manifest[] {
  const objects: Manifest[] = [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${PGBOUNCER}-config`, labels }, data: { 'pgbouncer.ini': pgbouncerIni(env) } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: PGBOUNCER, labels },
      spec: {
        replicas: env.pooler.replicas,
        selector: { matchLabels: select },
        template: {
          metadata: { labels },
          spec: {
            automountServiceAccountToken: false,
            securityContext: { runAsNonRoot: true, runAsUser: 70, runAsGroup: 70, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [
              {
                name: PGBOUNCER,
                image: PGBOUNCER_IMAGE,
                command: ['/usr/bin/pgbouncer', '/etc/pgbouncer/pgbouncer.ini'],
                ports: [{ name: 'postgres', containerPort: PGBOUNCER_PORT, protocol: 'TCP' }],
                readinessProbe: { tcpSocket: { port: 'postgres' }, periodSeconds: 5 },
                livenessProbe: { tcpSocket: { port: 'postgres' }, periodSeconds: 10 },
                resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
                volumeMounts: [
                  { name: 'config', mountPath: '/etc/pgbouncer/pgbouncer.ini', subPath: 'pgbouncer.ini', readOnly: true },
                  { name: 'auth', mountPath: '/etc/pgbouncer/auth', readOnly: true },
                  { name: 'tmp', mountPath: '/tmp' },
                ],
              },
            ],
            volumes: [
              { name: 'config', configMap: { name: `${PGBOUNCER}-config` } },
              { name: 'auth', secret: { secretName: PGBOUNCER_USERLIST_SECRET } },
              { name: 'tmp', emptyDir: { sizeLimit: '16Mi' } },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: PGBOUNCER, labels },
      spec: { type: 'ClusterIP', selector: select, ports: [{ name: 'postgres', port: PGBOUNCER_PORT, targetPort: 'postgres', protocol: 'TCP' }] },
    },
    { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: PGBOUNCER, labels }, spec: { maxUnavailable: 1, selector: { matchLabels: select } } },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: PGBOUNCER, labels },
      spec: {
        podSelector: { matchLabels: select },
        policyTypes: ['Ingress', 'Egress'],
        ingress: [{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'erp' } } }], ports: [{ port: 'postgres', protocol: 'TCP' }] }],
        egress: [
          { to: env.network.dns.to, ports: env.network.dns.ports?.map(({ port, protocol }) => ({ port, protocol: protocol ?? 'TCP' })) },
          { to: env.network.postgres.to, ports: [{ port: env.pooler.serverPort, protocol: 'TCP' }] },
        ],
      },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'erp-to-pgbouncer', labels },
      spec: {
        podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'erp' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ podSelector: { matchLabels: select } }], ports: [{ port: PGBOUNCER_PORT, protocol: 'TCP' }] }],
      },
    },
  ];
  if (env.shipsSecrets) {
    objects.push({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: PGBOUNCER_USERLIST_SECRET, labels },
      type: 'Opaque',
      // The dev overlay's throw-away logins (its <app>-database-owner and <app>-database Secrets').
      stringData: {
        'userlist.txt': [DEV_DATABASE_OWNER, DEV_DATABASE_RUNTIME].map(({ user, password }) => `"${user}" "${password}"\n`).join(''),
      },
    });
  }
  return objects;
}
