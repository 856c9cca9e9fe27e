import { type ListenedDelivery, SERVICES, startWebhookListener, type WebhookListener } from '@erp/dev';
import { checkoutRelease, previousRelease } from '@erp/release';
import { TestAuth } from '@erp/testing';
import { MixedSystem, type RunningProcess } from './upgrade/mixed-system';
import { COMPANY, UpgradeClient } from './upgrade/upgrade-client';
import { exclusively, ITEMS, verifyEverything, type Worker, workerRound, writtenVersions } from './upgrade/upgrade-workload';

const WORKERS = 2;
/** How long the load runs in each stage before its checks. */
const STAGE_MS = 5_000;
/** Between taking the previous release's gateway out of rotation and stopping it. */
const DEREGISTRATION_DELAY_MS = 3_000;
/** A steady load, not the most the machine can do: the pause between a worker's rounds. */
const ROUND_PAUSE_MS = 100;
const log = (line: string) => process.stdout.write(`[upgrade] ${line}\n`);

/**
 * A rolling upgrade from the previous release (releases/releases.json) to the working tree, as a
 * platform team runs it (docs/platform-teams.md "Upgrading to a new release"), with real processes
 * and a steady load through the gateways from start to end:
 *
 * 1. the previous release serves, on data it wrote;
 * 2. the working tree's expand step migrates every database under it;
 * 3. a replica of every service of the working tree, and a gateway of it, serve beside the previous
 *    release's (the load goes through both gateways);
 * 4. the previous release's gateway and replicas are stopped (SIGTERM, as a rollout ends);
 * 5. the contract step runs.
 *
 * At every stage, everything written at every earlier stage by either version is read back: orders
 * and their totals, name searches and their totals, an invoice's attachments; and at the end every
 * order change has reached the webhook receiver once (or again with the same webhook-id).
 * 0 failed requests, 0 wrong answers.
 */
describe(`a rolling upgrade from release ${previousRelease().version} to the working tree, under load`, () => {
  const auth = new TestAuth();
  const client = new UpgradeClient(auth);
  const workers: Worker[] = [];
  let system: MixedSystem;
  let listener: WebhookListener | undefined;
  const deliveries: ListenedDelivery[] = [];
  let running = true;
  let load: Promise<void> = Promise.resolve();

  /** Runs the steady load until `stopLoad`: each worker's rounds, back to back. */
  const startLoad = () => {
    load = Promise.all(
      workers.map(async (worker) => {
        for (let round = 0; running; round++) {
          await exclusively(worker, () => workerRound(client, worker, round));
          await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
        }
      }),
    ).then(() => undefined);
  };
  const stage = async (name: string, change: () => Promise<void>) => {
    client.stage = name;
    log(`stage: ${name}`);
    await change();
    await new Promise((resolve) => setTimeout(resolve, STAGE_MS));
    await verifyEverything(client, workers);
    log(`${name}: ${client.requests} requests so far, ${client.problems.length} problems`);
  };

  beforeAll(async () => {
    const checkout = await checkoutRelease(previousRelease(), log);
    system = await MixedSystem.create('upgrade', auth, checkout.root);
  }, 20 * 60_000);

  afterAll(async () => {
    running = false;
    await load;
    await listener?.stop();
    await system?.close();
  }, 120_000);

  it('serves every request right at every stage: 0 failed requests, 0 wrong answers', async () => {
    // 1. The previous release, on data it wrote.
    client.stage = 'previous release';
    await system.migrate('previous');
    const old: Record<string, RunningProcess> = {};
    for (const service of SERVICES) old[service.name] = await system.startService(service.name, 'previous');
    const oldGateway = await system.startGateway('previous', (name) => [old[name] as RunningProcess]);
    client.gateways = [oldGateway.url];
    await seed(client, workers);
    listener = await startWebhookListener({
      baseUrl: oldGateway.url,
      token: await auth.token({ companies: [COMPANY] }),
      companyId: COMPANY,
      eventTypes: ['SALESORDER_CREATED', 'SALESORDER_UPDATED'],
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    startLoad();
    await stage('previous release', async () => undefined);

    // 2. The expand step, under the previous release.
    await stage('expand migrations', () => system.migrate('current', 'expand'));

    // 3. Both versions: owners first, so the new callers know both versions' replicas of them.
    await stage('both versions', async () => {
      for (const service of SERVICES) await system.startService(service.name, 'current');
      const newGateway = await system.startGateway('current', (name) => system.replicasOf(name));
      client.gateways = [oldGateway.url, newGateway.url];
    });

    // 4. The previous release's gateway leaves the load balancer, then its replicas stop.
    await stage('previous release stopped', async () => {
      // As a load balancer deregisters a target: out of rotation first, stopped once the requests
      // it was given have had time to finish (the manifests' preStop sleep is 5 s).
      client.gateways = client.gateways.slice(1);
      await new Promise((resolve) => setTimeout(resolve, DEREGISTRATION_DELAY_MS));
      await system.stop(oldGateway);
      for (const process of Object.values(old)) await system.stop(process);
    });

    // 5. The contract step, now that every replica runs the working tree.
    await stage('contract migrations', () => system.migrate('current', 'contract'));

    running = false;
    await load;
    client.stage = 'end';
    await verifyEverything(client, workers);
    await expectEveryWriteDelivered(deliveries, client);
    log(`${client.requests} requests, ${writtenVersions.length} order versions written, ${client.problems.length} problems`);
    expect(client.requests).toBeGreaterThan(200);
    expect(client.problems).toEqual([]);
  }, 30 * 60_000);
});

/** The items, a customer and an invoice per worker, known to every service before the load starts. */
async function seed(client: UpgradeClient, workers: Worker[]): Promise<void> {
  for (const item of ITEMS) await client.call('PUT', `/api/v3/Inventory/${item}`, [200, 201], { body: {} });
  for (let index = 0; index < WORKERS; index++) {
    const customer = await client.call('POST', '/v1/customer', [201], { body: { name: `Upgrade Customer ${index}`, currencyId: 'NOK' } });
    const invoice = await client.call('POST', '/v1/supplierInvoice', [201], { body: { supplier: { number: 'S-1' }, currencyId: 'NOK', invoiceLines: [{ quantity: 1, unitPrice: '10.00' }] } });
    if (!customer || !invoice) throw new Error(`could not seed: ${JSON.stringify(client.problems)}`);
    workers.push({
      index,
      customer: ((await customer.json()) as { number: string }).number,
      invoice: ((await invoice.json()) as { referenceNumber: string }).referenceNumber,
      fragment: `upgzq${String.fromCharCode(97 + index)}`,
      named: 0,
      orders: [],
      attachments: [],
      turn: Promise.resolve(),
    });
  }
  // The previous release learns other services' records from events only: wait until it has.
  for (const worker of workers) {
    await until(`sales orders know customer ${worker.customer}`, async () => (await probe(client, 'POST', '/api/v3/SalesOrders', { type: 'QT', customer: { id: worker.customer } })) === 201);
    await until(`attachments know invoice ${worker.invoice}`, async () => (await probeUpload(client, worker.invoice)) === 201);
  }
}

/** A status, for waiting on the previous release's events (not counted as a failure). */
async function probe(client: UpgradeClient, method: string, path: string, body?: unknown): Promise<number> {
  const headers = await client.headers(body !== undefined, path.startsWith('/v1/'));
  const response = await fetch(`${client.gateways[0]}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

/** An upload's status, for waiting until the previous release's attachments service knows an invoice. */
async function probeUpload(client: UpgradeClient, invoice: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('probe')], { type: 'text/plain' }), 'probe.txt');
  const response = await fetch(`${client.gateways[0]}/v1/supplierInvoice/${invoice}/Attachment`, { method: 'POST', headers: await client.headers(false, true), body: form });
  await response.arrayBuffer();
  return response.status;
}

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 60_000; !(await condition()); await new Promise((r) => setTimeout(r, 250))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  }
}

/** Every order version written reached the receiver; a second delivery of one carries the same webhook-id. */
async function expectEveryWriteDelivered(deliveries: ListenedDelivery[], client: UpgradeClient): Promise<void> {
  const key = (orderId: string, version: string) => `${orderId}@${version}`;
  const delivered = () => {
    const byWrite = new Map<string, Set<string>>();
    for (const delivery of deliveries) {
      const data = delivery.body.data as { orderId?: string; version?: string } | undefined;
      if (!data?.orderId || !data.version) continue;
      const ids = byWrite.get(key(data.orderId, data.version)) ?? new Set<string>();
      ids.add(delivery.webhookId);
      byWrite.set(key(data.orderId, data.version), ids);
    }
    return byWrite;
  };
  const expected = writtenVersions.map((w) => key(w.orderId, w.version));
  for (let deadline = Date.now() + 60_000; Date.now() < deadline && !expected.every((k) => delivered().has(k)); ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const now = delivered();
  const missing = expected.filter((k) => !now.has(k));
  if (missing.length > 0) client.fail('wrong answer', `${missing.length} order versions never delivered as webhooks: ${missing.slice(0, 5).join(', ')}`);
  const twice = [...now].filter(([, ids]) => ids.size > 1).map(([k]) => k);
  if (twice.length > 0) client.fail('wrong answer', `delivered twice with different webhook-ids: ${twice.slice(0, 5).join(', ')}`);
}
