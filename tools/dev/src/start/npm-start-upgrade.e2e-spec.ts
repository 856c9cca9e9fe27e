import { join } from 'node:path';
import { checkoutRelease, previousRelease } from '@erp/release';
import { apiOf, npmStartSession, snapshot } from './npm-start-kit';
import { NpmStartProcess } from './npm-start-process';

/**
 * Issue 48: `npm start` as a durable workplace, run the way a person runs it (the real command, a
 * data directory of its own, Ctrl-C to its process group as a terminal sends it). Each test waits
 * for what it needs (a line, an answer); the suite's one bound is Jest's per test.
 */
describe('npm start after a git pull', () => {
  const { newPlace, start, running, cleanUp } = npmStartSession();
  afterAll(cleanUp, 120_000);

  it(`goes on from data the previous release (${previousRelease().version}) wrote, migrating it and keeping every record`, async () => {
    // A `git pull` between two starts: the older commit's npm start wrote the data (seeded), the
    // working tree's runs its migrations, both steps, and serves it.
    const release = await checkoutRelease(previousRelease(), (line) =>
      process.stdout.write(`[npm-start upgrade] ${line}\n`),
    );
    const place = await newPlace();
    // The release's services listen on their catalog ports, which it cannot move (only PORT and the broker's).
    const older = new NpmStartProcess(
      {
        dataDir: place.dataDir,
        ports: {
          PORT: place.ports['PORT'] as number,
          KAFKA_DEV_BROKER_PORT: place.ports['KAFKA_DEV_BROKER_PORT'] as number,
        },
      },
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
    expect((await call('/v1/customer', { method: 'POST', body: { name: 'After the upgrade' } })).status).toBe(
      201,
    );
    expect(await newer.interrupt()).toBe('stopped');
  }, 900_000);
});
