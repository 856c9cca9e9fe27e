/**
 * The services `npm start` runs, in start order. Each app owns `src/main.ts` (the server) and,
 * when it has a database, `src/migrate.ts` (the same step Kubernetes runs as a Job). Adding a
 * service to the system means adding it here and to the gateway's routes.
 */
export interface ServiceSpec {
  name: string;
  dir: string;
  defaultPort: number;
  /** Database name on the shared server (one database per service), if it has one. */
  database?: string;
  /** Gateway variable that carries this service's URL. */
  gatewayVariable?: string;
}

export const SERVICES: ServiceSpec[] = [
  { name: 'customers-v1', dir: 'apps/customers-v1', defaultPort: 3101, database: 'erp_customers', gatewayVariable: 'CUSTOMERS_URL' },
];

export const GATEWAY: ServiceSpec = { name: 'api-gateway', dir: 'apps/api-gateway', defaultPort: 3000 };
