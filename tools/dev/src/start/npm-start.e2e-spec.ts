import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { loadOrCreateDevKeyPair, signDevToken } from '@erp/auth';
import { checkoutRelease, previousRelease } from '@erp/release';
import { REPO_ROOT } from '../paths';
import { startWebhookListener, type ListenedDelivery, type WebhookListener } from '../webhook-listener';
import { NpmStartProcess, npmStartPlace, type NpmStartPlace } from './npm-start-process';

const COMPANY = '1000001';

/** Reads the API of a running `npm start` with a token signed by its own dev key, as `npm run token` does. */
async function apiOf(place: NpmStartPlace, baseUrl: string) {
  const keys = loadOrCreateDevKeyPair(join(place.dataDir, 'dev-keys'));
  const token = await signDevToken(keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read erp:write webhooks:manage' });
  const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'npm-start-test', accept: 'application/json' };
  const call = async (path: string, init: { method?: string; body?: unknown; accept?: string } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...headers, ...(init.accept ? { accept: init.accept } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: response.status, text: await response.text() };
  };
  return { token, call };
}

/** Everything the demo company holds, by its totals and one record of each kind: what a restart must keep. */
async function snapshot(place: NpmStartPlace, baseUrl: string) {
  const { call } = await apiOf(place, baseUrl);
  const total = async (path: string) => {
    const { status, text } = await call(path);
    if (status !== 200) throw new Error(`GET ${path}: ${status} ${text}`);
    const body = JSON.parse(text) as Array<{ metadata: { totalCount: number } }> | { totalCount?: number; value?: unknown[] };
    return Array.isArray(body) ? (body[0]?.metadata.totalCount ?? 0) : (body.totalCount ?? body.value?.length ?? 0);
  };
  const invoices = JSON.parse((await call('/v1/supplierInvoice?pageSize=1&pageNumber=1')).text) as Array<{ referenceNumber: string; attachments: Array<{ id: string }> }>;
  const attachmentId = invoices[0]?.attachments[0]?.id;
  return {
    customers: await total('/v1/customer?pageSize=1&pageNumber=1'),
    supplierInvoices: await total('/v1/supplierInvoice?pageSize=1&pageNumber=1'),
    salesOrders: await total('/api/v3/SalesOrders?pageSize=1'),
    inventoryItems: await total('/api/v3/Inventory?pageSize=1'),
    subscriptions: await total('/api/webhooks/subscriptions'),
    firstOrder: (await call('/api/v3/SalesOrders/SO/000001?expand=lines')).text,
    attachment: attachmentId ? (await call(`/v1/attachment/${attachmentId}`)).text : 'no attachment',
  };
}

/** `npm <args>` with ERP_DATA_DIR set, stdin closed (it must ask nothing): its exit code and its own lines. */
function npmRun(args: string[], dataDir: string): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['--silent', ...args], { cwd: REPO_ROOT, env: { ...process.env, ERP_DATA_DIR: dataDir } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      if (error && code === null) reject(error);
      else resolve({ code, lines: `${stdout}${stderr}`.split('\n').filter((line) => line.trim() !== '') });
    });
  });
}

async function waitForDelivery(deliveries: ListenedDelivery[], type: string, subject: string): Promise<ListenedDelivery> {
  for (;;) {
    const found = deliveries.find((d) => d.body.type === type && JSON.stringify(d.body.data).includes(subject));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Issue 48: `npm start` as a durable workplace, run the way a person runs it (the real command, a
 * data directory of its own, Ctrl-C to its process group as a terminal sends it). Each test waits
 * for what it needs (a line, an answer); the suite's one bound is Jest's per test.
 */
describe('npm start, on a data directory of its own', () => {
  const dirs: string[] = [];
  const running: NpmStartProcess[] = [];
  const newPlace = async () => {
    // Inside the checkout's .data, as a person's ERP_DATA_DIR would be, open to the server's OS user.
    await mkdir(join(REPO_ROOT, '.data'), { recursive: true });
    const dir = await mkdtemp(join(REPO_ROOT, '.data', 'test-npm-start-'));
    await chmod(dir, 0o755);
    dirs.push(dir);
    return npmStartPlace(dir);
  };
  const start = (place: NpmStartPlace, env?: Record<string, string>, root?: string) => {
    const proc = new NpmStartProcess(place, { env, ...(root ? { root } : {}) });
    running.push(proc);
    return proc;
  };

  afterAll(async () => {
    await Promise.all(running.map((proc) => proc.kill()));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }, 120_000);

  describe('stopped and started again, any number of times', () => {
    let place: NpmStartPlace;
    let listener: WebhookListener | undefined;
    const deliveries: ListenedDelivery[] = [];
    let before: Awaited<ReturnType<typeof snapshot>>;

    afterAll(async () => {
      await listener?.stop().catch(() => undefined);
    });

    it('comes up seeded the first time, with a webhook subscription and its secret', async () => {
      place = await newPlace();
      const first = start(place);
      const [, baseUrl] = await first.ready();
      expect(first.text).toContain(`seeded demo company ${COMPANY}`);
      const { token } = await apiOf(place, baseUrl as string);
      listener = await startWebhookListener({ baseUrl: baseUrl as string, token, companyId: COMPANY, eventTypes: ['CUSTOMER_CREATED'], onDelivery: (d) => deliveries.push(d) });
      before = await snapshot(place, baseUrl as string);
      expect(before).toMatchObject({ customers: 60, salesOrders: 40, supplierInvoices: 8, subscriptions: 1 });
      expect((JSON.parse(before.attachment) as { content: string }).content).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(await first.interrupt()).toBe('stopped');
    }, 600_000);

    it.each([2, 3])('start %i: every record, the subscription and its secret are still there, and nothing is seeded twice', async () => {
      const again = start(place);
      const [, baseUrl] = await again.ready();
      expect(again.text).not.toContain('password authentication failed');
      expect(again.text).not.toContain('seeded demo company');
      expect(await snapshot(place, baseUrl as string)).toEqual(before);
      // The secret the subscription was given on the first start still signs its webhooks.
      const { call } = await apiOf(place, baseUrl as string);
      const name = `Kept across restarts ${again.child.pid}`;
      const created = await call('/v1/customer', { method: 'POST', body: { name } });
      expect(created.status).toBe(201);
      const delivery = await waitForDelivery(deliveries, 'CUSTOMER_CREATED', JSON.parse(created.text).number as string);
      expect(delivery.verified).toBe(true);
      before = await snapshot(place, baseUrl as string);
      expect(await again.interrupt()).toBe('stopped');
    }, 300_000);

    it('a second npm start on the same data stops at once with one line naming the first, which keeps serving', async () => {
      const first = start(place);
      const [, baseUrl] = await first.ready();
      const second = start(place);
      expect(await second.exited).not.toBe(0);
      const lines = second.text.split('\n').filter((line) => line.startsWith('npm start:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^npm start: npm start is already running on ${place.dataDir} \\(pid \\d+, http://localhost:${place.ports['PORT']}\\)`));
      expect((await fetch(`${baseUrl}/health/ready`)).status).toBe(200);
      expect(await snapshot(place, baseUrl as string)).toEqual(before);
      const refused = await npmRun(['run', 'reset'], place.dataDir);
      expect([refused.code, refused.lines]).toEqual([1, [expect.stringMatching(new RegExp(`^npm run reset: npm start is running on ${place.dataDir} \\(pid \\d+, .*\\): stop it first$`))]]);
      expect((await fetch(`${baseUrl}/health/ready`)).status).toBe(200);
      expect(await first.interrupt()).toBe('stopped');
    }, 300_000);

    it('npm run reset, asking nothing, removes that data directory and nothing else', async () => {
      const sibling = await newPlace();
      const reset = await npmRun(['run', 'reset'], place.dataDir);
      expect(reset).toEqual({ code: 0, lines: [`removed ${place.dataDir}: the next npm start begins from nothing`] });
      expect(existsSync(place.dataDir)).toBe(false);
      expect(existsSync(sibling.dataDir)).toBe(true);
      expect(existsSync(join(REPO_ROOT, 'package.json'))).toBe(true);
    }, 60_000);
  });

  describe('a port that is taken', () => {
    let holder: Server;
    afterEach(async () => {
      await new Promise((resolve) => holder.close(resolve));
    });

    it.each([
      ['PORT', 'the gateway'],
      ['CUSTOMERS_V1_PORT', 'customers-v1'],
    ])('taken at %s stops npm start before anything starts, naming the port, its holder and the variable', async (variable, what) => {
      const place = await newPlace();
      const port = place.ports[variable] as number;
      holder = createServer();
      await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
      const proc = start(place, { SEED: 'false' });
      expect(await proc.exited).toBe(1);
      const lines = proc.text.split('\n').filter((line) => line.startsWith('npm start:') || line.startsWith('port '));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^npm start: port ${port} \\(${what}\\) is in use by pid ${process.pid} \\(.+\\): stop that, or set ${variable} to another port$`));
      // Nothing was started or migrated: no cluster, no keys, and the lock is given back.
      expect(await readdir(place.dataDir)).toEqual([]);
    }, 120_000);
  });

  it('Ctrl-C at any moment of start-up leaves data the next start accepts', async () => {
    const place = await newPlace();
    const moments: Array<[string, RegExp]> = [
      ['while the cluster is initialised', /starting embedded PostgreSQL/],
      ['while a service migrates', /migrating customers-v1/],
      ['while the services start', /customers-v1 ready at/],
      ['while the demo company is seeded', /seeding demo company/],
    ];
    for (const [moment, line] of moments) {
      const proc = start(place);
      await proc.waitFor(line, moment);
      expect([moment, await proc.interrupt()]).toEqual([moment, expect.stringMatching(/^(stopped|interrupted start-up)$/)]);
      expect([moment, existsSync(join(place.dataDir, 'npm-start.lock'))]).toEqual([moment, false]);
    }
    const last = start(place, { SEED: 'false' });
    const [, baseUrl] = await last.ready();
    const { call } = await apiOf(place, baseUrl as string);
    const created = await call('/v1/customer', { method: 'POST', body: { name: 'After four interruptions' } });
    expect(created.status).toBe(201);
    expect((await call(`/v1/customer/${JSON.parse(created.text).number as string}`)).status).toBe(200);
    expect(await last.interrupt()).toBe('stopped');
  }, 600_000);

  it(`goes on from data the previous release (${previousRelease().version}) wrote, migrating it and keeping every record`, async () => {
    // A `git pull` between two starts: the older commit's npm start wrote the data (seeded), the
    // working tree's runs its migrations, both steps, and serves it.
    const release = await checkoutRelease(previousRelease(), (line) => process.stdout.write(`[npm-start upgrade] ${line}\n`));
    const place = await newPlace();
    // The release's services listen on their catalog ports, which it cannot move (only PORT and the broker's).
    const older = new NpmStartProcess(
      { dataDir: place.dataDir, ports: { PORT: place.ports['PORT'] as number, KAFKA_DEV_BROKER_PORT: place.ports['KAFKA_DEV_BROKER_PORT'] as number } },
      // Its docs: with ERP_DATA_DIR elsewhere, STORAGE_DIR too.
      { root: release.root, env: { STORAGE_DIR: join(place.dataDir, 'attachments') } },
    );
    running.push(older);
    const [, olderUrl] = await older.ready();
    const written = await snapshot(place, olderUrl as string);
    expect(written).toMatchObject({ customers: 60, salesOrders: 40, supplierInvoices: 8 });
    // That release says nothing when it has stopped: its processes all gone is its stop.
    await older.interrupt();

    const newer = start(place);
    const [, baseUrl] = await newer.ready();
    expect(newer.text).toContain('migrating customers-v1');
    expect(newer.text).not.toContain('seeded demo company');
    expect(await snapshot(place, baseUrl as string)).toEqual(written);
    const { call } = await apiOf(place, baseUrl as string);
    expect((await call('/v1/customer', { method: 'POST', body: { name: 'After the upgrade' } })).status).toBe(201);
    expect(await newer.interrupt()).toBe('stopped');
  }, 900_000);
});
