import { DEV_AUDIENCE, DEV_ISSUER } from '@erp/auth';
import { DATA_DIR } from './paths';
import { seedCompany } from './seed-data';
import { replicasFrom, startSystem } from './system';

const DEMO_COMPANY = '1000001';

/**
 * `npm start`: the whole system on embedded defaults. With no configuration it starts a real
 * PostgreSQL (data under .data/), migrates every service's database, starts every service and
 * the gateway, seeds a demo company on first start, and prints how to call it. Ctrl-C stops all.
 * DATABASE_URL points it at an existing PostgreSQL server instead. Events go to an in-memory
 * Kafka dev broker on 127.0.0.1:9092 (KAFKA_DEV_BROKER_PORT to move it), or to the cluster
 * KAFKA_BROKERS names.
 */
async function main(): Promise<void> {
  const gatewayPort = Number(process.env.PORT ?? 3000);
  const log = (line: string) => process.stdout.write(`[dev] ${line}\n`);
  const system = await startSystem({
    databaseServerUrl: process.env.DATABASE_URL,
    kafkaBrokers: process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()).filter(Boolean),
    kafkaDevBrokerPort: process.env.KAFKA_DEV_BROKER_PORT ? Number(process.env.KAFKA_DEV_BROKER_PORT) : undefined,
    dataDir: DATA_DIR,
    gatewayPort,
    servicePorts: 'fixed',
    // REPLICAS: processes per service, on the service's port and every tenth after it.
    replicas: replicasFrom('REPLICAS'),
    log,
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping every service`);
    await system.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  for (const proc of system.processes) {
    void proc.exited.then((code) => {
      if (!stopping) {
        log(`${proc.name} exited unexpectedly (code ${code}); stopping`);
        void shutdown('child exit');
      }
    });
  }

  if (process.env.SEED !== 'false') {
    const seeded = await seedCompany({ baseUrl: system.baseUrl, keys: system.keys, companyId: DEMO_COMPANY, onlyIfEmpty: true });
    if (seeded) log(`seeded demo company ${DEMO_COMPANY}`);
  }

  process.stdout.write(`
  ERP business API is running at ${system.baseUrl}  (issuer ${DEV_ISSUER}, audience ${DEV_AUDIENCE})
  Kafka: ${system.kafkaBrokers.join(',')}${process.env.KAFKA_BROKERS ? '' : ' (in-memory dev broker)'}

  Get a dev token:   TOKEN=$(npm run -s token -- --company ${DEMO_COMPANY})
  Call it:           curl -H "Authorization: Bearer $TOKEN" -H "ipp-company-id: ${DEMO_COMPANY}" \\
                          -H "ipp-application-type: curl" -H "Accept: application/json" \\
                          "${system.baseUrl}/v1/customer?pageSize=10&pageNumber=1"

  Press Ctrl-C to stop.
`);
}

main().catch((err: unknown) => {
  process.stderr.write(`npm start failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
