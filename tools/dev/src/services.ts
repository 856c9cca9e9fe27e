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
  /** Variables this service gets in the embedded default (on top of the common ones). */
  env?: Record<string, string>;
  /**
   * Variables that name a place in the system's data directory (ERP_DATA_DIR for `npm start`),
   * as paths inside it; the variable set in the environment or the system's `env` wins.
   */
  dataDirEnv?: Record<string, string>;
  /**
   * Node/V8 flags the service runs with everywhere: `npm start`, the tests, compose and Kubernetes
   * (`npm run deploy:generate` puts them on the container's command). Command-line flags, because
   * NODE_OPTIONS refuses V8 heap-sizing flags such as `--initial-old-space-size`.
   */
  nodeArgs?: string[];
  /**
   * The container's memory in Kubernetes, in MiB: `request` at least the highest RSS measured on the
   * compiled build in any bench scenario, `limit` such that the peak is at most 60 % of it (issue 17;
   * figures in BENCHMARKS.md "Memory of the compiled build"). Absent: the manifests' default.
   */
  memoryMiB?: { request: number; limit: number };
  /**
   * The services whose internal HTTP API this one calls (catalog names; docs/cross-service-reads.md).
   * It gets each callee's URL in the callee's `gatewayVariable` (e.g. CUSTOMERS_URL): in `npm start`
   * and the tests its replicas, in the manifests its Service (`npm run deploy:generate`), and the
   * network policies let this service's pods reach the callee's. `startSystem` starts the callees too.
   */
  calls?: string[];
}

/**
 * Node flags of the processes that stream file bodies (attachments-v1, and the gateway in front of
 * it). At hundreds of MiB/s V8 left some of these processes with an old-generation limit just above
 * their live heap (~60 MB), so every few MB of promoted stream objects started a full Mark-Compact:
 * one every 50-100 ms for the rest of the process's life, and downloads at a third of the normal
 * rate. A 128 MiB initial old generation keeps the limit clear of the live heap. Its price is RSS
 * under sustained small transfers (old-space garbage waits for the limit). Figures, and what else
 * was tried (`--min-semi-space-size`, `--no-memory-reducer`): BENCHMARKS.md "Scenario 4". A
 * command-line flag because NODE_OPTIONS refuses it.
 */
const STREAMING_NODE_ARGS = ['--initial-old-space-size=128'];

/**
 * Node flags of the services that answer JSON (everything but the file streamers above). V8 sizes
 * the young generation from the memory it sees: Node 24 on the 23.5 GiB bench machine grew it to
 * 128 MiB, so a service paging large JSON documents gained ~110 MiB of RSS that was only young
 * garbage, and a pod would meet a different size than the bench. 8 MiB semi-spaces (16 MiB of young
 * generation) took sales-orders-v3's peak under the expand scenario from ~375 to ~225 MiB with no
 * loss of throughput and less CPU per request: BENCHMARKS.md "Young generation of the JSON services".
 */
const JSON_SERVICE_NODE_ARGS = ['--max-semi-space-size=8'];

export const SERVICES: ServiceSpec[] = [
  // Compiled-build peak 388-394 MiB (filtered-paging's full sync at pageSize 1000), with 8 MiB semi-spaces.
  {
    name: 'customers-v1',
    dir: 'apps/customers-v1',
    defaultPort: 3101,
    database: 'erp_customers',
    gatewayVariable: 'CUSTOMERS_URL',
    nodeArgs: JSON_SERVICE_NODE_ARGS,
    memoryMiB: { request: 416, limit: 704 },
  },
  // Compiled-build peak 178 MiB (filtered-paging, 1M invoices), with 8 MiB semi-spaces.
  {
    name: 'supplier-invoices-v1',
    dir: 'apps/supplier-invoices-v1',
    defaultPort: 3102,
    database: 'erp_supplier_invoices',
    gatewayVariable: 'SUPPLIER_INVOICES_URL',
    nodeArgs: JSON_SERVICE_NODE_ARGS,
    memoryMiB: { request: 192, limit: 384 },
  },
  // Attachment bytes go to STORAGE_DIR (the data directory's attachments/; filesystem driver) unless STORAGE_DRIVER=s3.
  {
    name: 'attachments-v1',
    dir: 'apps/attachments-v1',
    defaultPort: 3103,
    database: 'erp_attachments',
    gatewayVariable: 'ATTACHMENTS_URL',
    calls: ['customers-v1', 'supplier-invoices-v1'],
    dataDirEnv: { STORAGE_DIR: 'attachments' },
    nodeArgs: STREAMING_NODE_ARGS,
    // Compiled-build peak 338 MiB (attachments scenario).
    memoryMiB: { request: 352, limit: 640 },
  },
  // Compiled-build peak 260 MiB (webhook-latency; 214 MiB in sales-orders-expand), with 8 MiB semi-spaces.
  {
    name: 'sales-orders-v3',
    dir: 'apps/sales-orders-v3',
    defaultPort: 3105,
    database: 'erp_sales_orders',
    gatewayVariable: 'SALES_ORDERS_URL',
    calls: ['customers-v1'],
    nodeArgs: JSON_SERVICE_NODE_ARGS,
    memoryMiB: { request: 288, limit: 512 },
  },
  {
    name: 'webhook-publisher',
    dir: 'apps/webhook-publisher',
    defaultPort: 3106,
    database: 'erp_webhooks',
    gatewayVariable: 'WEBHOOKS_URL',
    nodeArgs: JSON_SERVICE_NODE_ARGS,
    // Local receivers (`npm run webhooks:listen`) live on localhost; production refuses private targets.
    env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' },
    // Compiled-build peak 211 MiB (webhook-latency scenario), with 8 MiB semi-spaces.
    memoryMiB: { request: 224, limit: 384 },
  },
];

/**
 * The variable that moves a service's port under `npm start` (e.g. CUSTOMERS_V1_PORT for
 * customers-v1; its replicas take every tenth port after it). The gateway's is PORT.
 */
export function portVariable(service: ServiceSpec): string {
  return service.name === GATEWAY.name ? 'PORT' : `${service.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_PORT`;
}

// Compiled-build peak 356 MiB (attachments scenario). The streaming flags, and a young generation
// of 32 MiB rather than V8's default (up to 128 MiB on the bench machine): passing the 1M-customer
// full sync's 686 KB pages through, that default made the walk 17.3 s against 14.3-15.3 s, with no
// loss on attachments (BENCHMARKS.md, "Filtered paging after name counts").
export const GATEWAY: ServiceSpec = {
  name: 'api-gateway',
  dir: 'apps/api-gateway',
  defaultPort: 3000,
  nodeArgs: [...STREAMING_NODE_ARGS, '--max-semi-space-size=16'],
  memoryMiB: { request: 384, limit: 640 },
};

/** The catalog's services named, with every service they call (transitively), in catalog order. */
export function withCalledServices(names: string[] | undefined): ServiceSpec[] {
  if (!names) return SERVICES;
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const called of SERVICES.find((s) => s.name === name)?.calls ?? []) add(called);
  };
  names.forEach(add);
  return SERVICES.filter((s) => wanted.has(s.name));
}
