/** What differs between the Kubernetes overlays. Both overlays are generated from this. */
export interface Environment {
  name: 'dev' | 'prod';
  namespace: string;
  /** Image registry prefix and tag (CI usually sets the tag: `kustomize edit set image`). */
  imagePrefix: string;
  imageTag: string;
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
}

export const ENVIRONMENTS: Environment[] = [
  {
    name: 'dev',
    namespace: 'erp-dev',
    imagePrefix: 'erp/',
    imageTag: 'dev',
    minReplicas: 1,
    maxReplicas: 2,
    resources: { requests: { cpu: '50m' } },
    config: {
      LOG_LEVEL: 'debug',
      AUTH_ISSUER: 'erp-dev',
      AUTH_AUDIENCE: 'erp-api',
      AUTH_JWKS_URL: 'http://identity.erp-dev.svc/.well-known/jwks.json',
      KAFKA_BROKERS: 'kafka.erp-dev.svc:9092',
      KAFKA_SSL: 'false',
      S3_ENDPOINT: 'http://minio.erp-dev.svc:9000',
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'erp-attachments-dev',
      S3_FORCE_PATH_STYLE: 'true',
    },
    shipsSecrets: true,
  },
  {
    name: 'prod',
    namespace: 'erp',
    imagePrefix: 'registry.example.com/erp/',
    imageTag: '1.0.0',
    minReplicas: 3,
    maxReplicas: 12,
    resources: { requests: { cpu: '250m' } },
    config: {
      LOG_LEVEL: 'info',
      AUTH_ISSUER: 'https://id.example.com',
      AUTH_AUDIENCE: 'erp-api',
      AUTH_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
      KAFKA_BROKERS: 'kafka-0.kafka.svc:9093,kafka-1.kafka.svc:9093,kafka-2.kafka.svc:9093',
      KAFKA_SSL: 'true',
      S3_ENDPOINT: 'https://s3.eu-north-1.amazonaws.com',
      S3_REGION: 'eu-north-1',
      S3_BUCKET: 'erp-attachments',
      S3_FORCE_PATH_STYLE: 'false',
    },
    shipsSecrets: false,
  },
];
