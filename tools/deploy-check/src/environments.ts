/** A NetworkPolicy peer (`from`/`to` entry): pods, namespaces, or addresses. */
export type NetworkPeer = Record<string, unknown>;
/** Where a kind of traffic may go, and on which ports (absent: every port). */
export interface EgressTarget {
  to: NetworkPeer[];
  ports?: Array<{ port: number; protocol?: 'TCP' | 'UDP' }>;
}

/**
 * The cluster around the apps, as the network policies see it. Selectors and CIDRs differ per
 * cluster, so they live here, per overlay; the app-to-app rules (the catalog's `calls`) are in
 * the base. Each egress target is granted only to the apps that use it (see network-policies.ts).
 */
export interface NetworkSettings {
  /** Who may reach the gateway's API port: the ingress controller's pods. */
  ingressController: NetworkPeer[];
  /** Who may scrape the metrics port (METRICS_PORT) of every app: Prometheus. */
  monitoring: NetworkPeer[];
  dns: EgressTarget;
  postgres: EgressTarget;
  kafka: EgressTarget;
  objectStorage: EgressTarget;
  otlpCollector: EgressTarget;
  /** The identity provider's JWKS (AUTH_JWKS_URL): every service verifies tokens with it. */
  identityProvider: EgressTarget;
  /** webhook-publisher's receivers: the internet (its own checks refuse private targets too). */
  internet: EgressTarget;
  /**
   * Pods of others in the namespace (`app.kubernetes.io/name`), e.g. a dev cluster's PostgreSQL and
   * Kafka: the default deny would cut them off, so each gets a policy taking it out of it
   * (any egress, ingress from the namespace). Empty where the namespace holds the apps alone.
   */
  neighbours: string[];
}

const namespace = (name: string): NetworkPeer => ({
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } },
});
const pods = (name: string, inNamespace?: string): NetworkPeer => ({
  ...(inNamespace ? namespace(inNamespace) : {}),
  podSelector: { matchLabels: { 'app.kubernetes.io/name': name } },
});
/** Addresses outside the private, link-local (cloud metadata) and carrier-grade NAT ranges. */
export const PUBLIC_INTERNET: NetworkPeer = {
  ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10'] },
};
const DNS: EgressTarget = {
  to: [{ ...namespace('kube-system'), podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
  ports: [
    { port: 53, protocol: 'UDP' },
    { port: 53, protocol: 'TCP' },
  ],
};
const OTLP: EgressTarget = { to: [pods('opentelemetry-collector', 'monitoring')], ports: [{ port: 4318 }] };

/** What differs between the Kubernetes overlays. Both overlays are generated from this. */
export interface Environment {
  name: 'dev' | 'prod';
  namespace: string;
  /**
   * Images: a registry prefix and tag for every app, or (`release`) the file of one entry per app
   * with repository, tag and digest (tools/deploy-check/releases/<name>.json, images.ts), which a
   * release changes one app at a time.
   */
  images: { prefix: string; tag: string } | { release: string };
  /** HorizontalPodAutoscaler bounds of every service. */
  minReplicas: number;
  maxReplicas: number;
  /** CPU request of every app container; memory is per app (the catalog's measured figures). */
  resources: { requests: { cpu: string } };
  /** Values of the shared ConfigMap `erp-config`. */
  config: Record<string, string>;
  /**
   * Secrets shipped with the overlay (dev only: throw-away values for a dev cluster). Elsewhere
   * the Secrets are created outside git (External Secrets, sealed secrets, the platform's vault).
   */
  shipsSecrets: boolean;
  network: NetworkSettings;
  /** Annotations of an app's ServiceAccount, e.g. the IAM role of workload identity (IRSA). */
  serviceAccountAnnotations: Record<string, Record<string, string>>;
  /**
   * The PodMonitors, PrometheusRules and Grafana dashboards (components/monitoring): needs the
   * Prometheus Operator's CRDs. False for a cluster that scrapes by the pod annotations alone.
   */
  monitoring: boolean;
  /** PgBouncer in transaction mode (the overlay's `pgbouncer` component); `enabled` adds it. */
  pooler: { enabled: boolean; serverHost: string; serverPort: number; replicas: number };
}

export const ENVIRONMENTS: Environment[] = [
  {
    name: 'dev',
    namespace: 'erp-dev',
    images: { prefix: 'erp/', tag: 'dev' },
    minReplicas: 1,
    maxReplicas: 2,
    resources: { requests: { cpu: '50m' } },
    config: {
      LOG_LEVEL: 'debug',
      AUTH_ISSUER: 'erp-dev',
      AUTH_AUDIENCE: 'erp-api',
      AUTH_JWKS_URL: 'http://identity.erp-dev.svc/.well-known/jwks.json',
      DATABASE_POOL_SIZE: '5',
      KAFKA_BROKERS: 'kafka.erp-dev.svc:9092',
      KAFKA_SSL: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://opentelemetry-collector.monitoring.svc:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      OTEL_TRACES_SAMPLER_ARG: '1',
      S3_ENDPOINT: 'http://minio.erp-dev.svc:9000',
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'erp-attachments-dev',
      S3_FORCE_PATH_STYLE: 'true',
    },
    shipsSecrets: true,
    network: {
      ingressController: [pods('ingress-nginx', 'ingress-nginx')],
      monitoring: [namespace('monitoring')],
      dns: DNS,
      // The dev cluster runs PostgreSQL, Kafka, MinIO and the identity stub in the namespace itself.
      postgres: { to: [pods('postgres')], ports: [{ port: 5432 }] },
      kafka: { to: [pods('kafka')], ports: [{ port: 9092 }] },
      objectStorage: { to: [pods('minio')], ports: [{ port: 9000 }] },
      otlpCollector: OTLP,
      identityProvider: { to: [pods('identity')], ports: [{ port: 80 }, { port: 8080 }] },
      internet: { to: [PUBLIC_INTERNET] },
      neighbours: ['postgres', 'kafka', 'minio', 'identity'],
    },
    serviceAccountAnnotations: {},
    monitoring: true,
    pooler: { enabled: false, serverHost: 'postgres.erp-dev.svc', serverPort: 5432, replicas: 1 },
  },
  {
    name: 'prod',
    namespace: 'erp',
    images: { release: 'prod' },
    minReplicas: 3,
    maxReplicas: 12,
    resources: { requests: { cpu: '250m' } },
    config: {
      LOG_LEVEL: 'info',
      AUTH_ISSUER: 'https://id.example.com',
      AUTH_AUDIENCE: 'erp-api',
      AUTH_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
      DATABASE_POOL_SIZE: '10',
      KAFKA_BROKERS: 'kafka-0.kafka.svc:9093,kafka-1.kafka.svc:9093,kafka-2.kafka.svc:9093',
      KAFKA_SSL: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://opentelemetry-collector.monitoring.svc:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.05',
      S3_ENDPOINT: 'https://s3.eu-north-1.amazonaws.com',
      S3_REGION: 'eu-north-1',
      S3_BUCKET: 'erp-attachments',
      S3_FORCE_PATH_STYLE: 'false',
    },
    shipsSecrets: false,
    network: {
      ingressController: [pods('ingress-nginx', 'ingress-nginx')],
      monitoring: [{ ...namespace('monitoring'), podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } }],
      dns: DNS,
      // The managed PostgreSQL's subnet (or the pooler's), and the brokers' namespace.
      postgres: { to: [{ ipBlock: { cidr: '10.20.0.0/24' } }], ports: [{ port: 5432 }] },
      kafka: { to: [namespace('kafka')], ports: [{ port: 9093 }] },
      // S3's public endpoints (a VPC endpoint's CIDR is narrower where the cluster has one).
      objectStorage: { to: [PUBLIC_INTERNET], ports: [{ port: 443 }] },
      otlpCollector: OTLP,
      identityProvider: { to: [PUBLIC_INTERNET], ports: [{ port: 443 }] },
      internet: { to: [PUBLIC_INTERNET] },
      neighbours: [],
    },
    // Workload identity (IRSA): attachments-v1 reaches S3 with its role, no static keys.
    serviceAccountAnnotations: {
      'attachments-v1': { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/erp-attachments' },
    },
    monitoring: true,
    pooler: { enabled: false, serverHost: 'erp-postgres.cluster-abc.eu-north-1.rds.amazonaws.com', serverPort: 5432, replicas: 2 },
  },
];
