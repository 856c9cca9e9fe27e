import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths';
import { startWebhookListener, type ListenedDelivery, type WebhookListener } from '../webhook-listener';
import { apiOf, COMPANY, npmRun, npmStartSession, snapshot, waitForDelivery } from './npm-start-kit';
import type { NpmStartPlace } from './npm-start-process';

/**
 * Issue 48: `npm start` as a durable workplace, run the way a person runs it (the real command, a
 * data directory of its own, Ctrl-C to its process group as a terminal sends it). Each test waits
 * for what it needs (a line, an answer); the suite's one bound is Jest's per test.
 */
/** The seed a person gets, smaller (SEED=small): the same kinds of record, a fifth of the work. */
const SMALL_SEED = { SEED: 'small' };

describe('npm start, stopped and started again on its data', () => {
  const { newPlace, start, cleanUp } = npmStartSession();
  afterAll(cleanUp, 120_000);

  let place: NpmStartPlace;
  let listener: WebhookListener | undefined;
  const deliveries: ListenedDelivery[] = [];
  let before: Awaited<ReturnType<typeof snapshot>>;
  /** The second start, which the next test uses before stopping it. */
  let running: ReturnType<typeof start>;
  let runningUrl: string;

  afterAll(async () => {
    await listener?.stop().catch(() => undefined);
  });

  it('comes up seeded the first time, with a webhook subscription and its secret', async () => {
    place = await newPlace();
    const first = start(place, SMALL_SEED);
    const [, baseUrl] = await first.ready();
    expect(first.text).toContain(`seeded demo company ${COMPANY}`);
    const { token } = await apiOf(place, baseUrl as string);
    listener = await startWebhookListener({
      baseUrl: baseUrl as string,
      token,
      companyId: COMPANY,
      eventTypes: ['CUSTOMER_CREATED'],
      onDelivery: (d) => deliveries.push(d),
    });
    before = await snapshot(place, baseUrl as string);
    expect(before).toMatchObject({ customers: 12, salesOrders: 6, supplierInvoices: 2, subscriptions: 1 });
    expect((JSON.parse(before.attachment) as { content: string }).content).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(await first.interrupt()).toBe('stopped');
  }, 600_000);

  it('started again: every record, the subscription and its secret are still there, and nothing is seeded twice', async () => {
    const again = start(place, SMALL_SEED);
    const [, baseUrl] = await again.ready();
    running = again;
    runningUrl = baseUrl as string;
    expect(again.text).not.toContain('password authentication failed');
    expect(again.text).not.toContain('seeded demo company');
    // Nothing changed in the migrations since the first start: no migrate process is started.
    for (const service of ['customers-v1', 'supplier-invoices-v1', 'attachments-v1', 'sales-orders-v3', 'webhook-publisher']) {
      expect(again.text).toContain(`${service}: migrations unchanged since they last ran, not run again`);
    }
    expect(again.text).not.toContain('migrating customers-v1');
    // A start says nothing alarming on its way up: readiness probes of services still starting
    // are answers, not errors, and the dev broker has every topic before a consumer subscribes.
    expect(again.text).not.toContain('ServiceUnavailableException');
    expect(again.text).not.toContain('does not host this topic-partition');
    expect(await snapshot(place, baseUrl as string)).toEqual(before);
    // The secret the subscription was given on the first start still signs its webhooks.
    const { call } = await apiOf(place, baseUrl as string);
    const name = `Kept across restarts ${again.child.pid}`;
    const created = await call('/v1/customer', { method: 'POST', body: { name } });
    expect(created.status).toBe(201);
    const delivery = await waitForDelivery(
      deliveries,
      'CUSTOMER_CREATED',
      JSON.parse(created.text).number as string,
    );
    expect(delivery.verified).toBe(true);
    before = await snapshot(place, baseUrl as string);
  }, 300_000);

  // On the same running start as the test before (a whole start costs a minute of CPU on the 2-core machine).
  it('while it runs, a second npm start beside it stops at once with one line naming it, and it keeps serving', async () => {
    const first = running;
    const baseUrl = runningUrl;
    const second = start(place, SMALL_SEED);
    expect(await second.exited).not.toBe(0);
    const lines = second.text.split('\n').filter((line) => line.startsWith('npm start:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^npm start: npm start is already running on ${place.dataDir} \\(pid \\d+, http://localhost:${place.ports['PORT']}\\)`,
      ),
    );
    expect((await fetch(`${baseUrl}/health/ready`)).status).toBe(200);
    expect(await snapshot(place, baseUrl as string)).toEqual(before);
    const refused = await npmRun(['run', 'reset'], place.dataDir);
    expect([refused.code, refused.lines]).toEqual([
      1,
      [
        expect.stringMatching(
          new RegExp(
            `^npm run reset: npm start is running on ${place.dataDir} \\(pid \\d+, .*\\): stop it first$`,
          ),
        ),
      ],
    ]);
    expect((await fetch(`${baseUrl}/health/ready`)).status).toBe(200);
    expect(await first.interrupt()).toBe('stopped');
  }, 300_000);

  it('npm run reset, asking nothing, removes that data directory and nothing else', async () => {
    const sibling = await newPlace();
    const reset = await npmRun(['run', 'reset'], place.dataDir);
    expect(reset).toEqual({
      code: 0,
      lines: [`removed ${place.dataDir}: the next npm start begins from nothing`],
    });
    expect(existsSync(place.dataDir)).toBe(false);
    expect(existsSync(sibling.dataDir)).toBe(true);
    expect(existsSync(join(REPO_ROOT, 'package.json'))).toBe(true);
  }, 60_000);
});
