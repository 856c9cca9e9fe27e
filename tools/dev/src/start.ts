import { DEV_AUDIENCE, DEV_ISSUER } from '@erp/auth';
import { DATA_DIR } from './paths';
import { PortsTakenError } from './start/port-check';
import { seedCompany, type SeedOptions } from './seed-data';
import { portVariable, SERVICES } from './services';
import { AlreadyRunningError, takeStartLock } from './start/start-lock';
import { replicasFrom, startSystem, type RunningSystem } from './system';

const DEMO_COMPANY = '1000001';

/**
 * `npm start`: the whole system on embedded defaults. With no configuration it starts a real
 * PostgreSQL (data under .data/), migrates every service's database, starts every service and
 * the gateway, seeds a demo company on first start, and prints how to call it. Ctrl-C stops all,
 * at any moment (start-up included), and the next start goes on from the same data.
 * DATABASE_URL points it at an existing PostgreSQL server instead. Events go to an in-memory
 * Kafka dev broker on 127.0.0.1:9092 (KAFKA_DEV_BROKER_PORT to move it), or to the cluster
 * KAFKA_BROKERS names. One `npm start` per data directory (ERP_DATA_DIR).
 */
async function main(): Promise<void> {
  const gatewayPort = portFrom('PORT') ?? 3000;
  const seed = seedSize(process.env.SEED);
  const log = (line: string) => process.stdout.write(`[dev] ${line}\n`);
  const releaseLock = await takeStartLock(DATA_DIR, `http://localhost:${gatewayPort}`);

  // Signals are taken from the first moment: during start-up they abort it (everything started so
  // far is stopped, migrations are let finish), after it they stop the running system.
  const starting = new AbortController();
  let startup: Promise<RunningSystem> | undefined;
  let stopping: Promise<void> | undefined;
  const shutdown = (why: string, exitCode: number) => {
    stopping ??= (async () => {
      log(`${why}: stopping every service`);
      starting.abort(new Error(`start-up interrupted (${why})`));
      // An aborted start stops what it started itself; a finished one is stopped here.
      const system = await startup?.catch(() => undefined);
      await system?.stop();
      await releaseLock();
      log(system ? 'stopped' : 'start-up interrupted');
      process.exit(system ? exitCode : 130);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT', 0));
  process.on('SIGTERM', () => shutdown('SIGTERM', 0));

  let system: RunningSystem;
  try {
    startup = startSystem({
      databaseServerUrl: process.env.DATABASE_URL,
      kafkaBrokers: process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()).filter(Boolean),
      kafkaDevBrokerPort: portFrom('KAFKA_DEV_BROKER_PORT'),
      dataDir: DATA_DIR,
      gatewayPort,
      servicePorts: 'fixed',
      fixedPorts: Object.fromEntries(SERVICES.flatMap((service) => {
        const port = portFrom(portVariable(service));
        return port === undefined ? [] : [[service.name, port]];
      })),
      // REPLICAS: processes per service, on the service's port and every tenth after it.
      replicas: replicasFrom('REPLICAS'),
      signal: starting.signal,
      log,
    });
    system = await startup;
  } catch (error) {
    if (stopping) return;
    await releaseLock();
    throw error;
  }
  if (stopping) return;

  for (const proc of system.processes) {
    void proc.exited.then((code) => {
      if (!stopping) shutdown(`${proc.name} exited unexpectedly (code ${code})`, 1);
    });
  }

  if (seed) {
    log(`seeding demo company ${DEMO_COMPANY} unless it holds data`);
    // Interrupted, it leaves what it created so far: the next start finds customers and seeds no more.
    const seeded = await seedCompany({ baseUrl: system.baseUrl, keys: system.keys, companyId: DEMO_COMPANY, onlyIfEmpty: true, ...seed }).catch((error: unknown) => {
      if (!stopping) throw error;
      return false;
    });
    if (seeded) log(`seeded demo company ${DEMO_COMPANY}`);
  }
  if (stopping) return;

  process.stdout.write(`
  ERP business API is running at ${system.baseUrl}  (issuer ${DEV_ISSUER}, audience ${DEV_AUDIENCE})
  Kafka: ${system.kafkaBrokers.join(',')}${process.env.KAFKA_BROKERS ? '' : ' (in-memory dev broker)'}

  Get a dev token:   TOKEN=$(npm run -s token -- --company ${DEMO_COMPANY})
  Call it:           curl -H "Authorization: Bearer $TOKEN" -H "ipp-company-id: ${DEMO_COMPANY}" \\
                          -H "ipp-application-type: curl" -H "Accept: application/json" \\
                          "${system.baseUrl}/v1/customer?pageSize=10&pageNumber=1"

  Press Ctrl-C to stop; \`npm start\` again goes on from the same data (\`npm run reset\` starts afresh).
`);
}

class BadVariableError extends Error {}

/**
 * SEED: `true` (default) the demo company in full (60 customers, 40 orders up to 1200 lines, 8
 * invoices with attachments); `small` a few of each, for a start that must be quick (the npm start
 * suites); `false` nothing. Undefined: no seeding.
 */
function seedSize(value: string | undefined): Partial<Pick<SeedOptions, 'customers' | 'salesOrders' | 'supplierInvoices'>> | undefined {
  if (value === undefined || value === '' || value === 'true') return {};
  if (value === 'small') return { customers: 12, salesOrders: 6, supplierInvoices: 2 };
  if (value === 'false') return undefined;
  throw new BadVariableError(`SEED must be true, small or false, not "${value}"`);
}

/** A port from an environment variable, or undefined when it is unset; a wrong one stops here. */
function portFrom(variable: string): number | undefined {
  const value = process.env[variable];
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new BadVariableError(`${variable} must be a port number (1 to 65535), not "${value}"`);
  return port;
}

main().catch((err: unknown) => {
  // The failures a person can act on are one line each; anything else keeps its stack.
  const known = err instanceof AlreadyRunningError || err instanceof PortsTakenError || err instanceof BadVariableError;
  const text = err instanceof Error ? (known ? err.message : (err.stack ?? err.message)) : String(err);
  process.stderr.write(`npm start: ${text}\n`);
  process.exit(1);
});
