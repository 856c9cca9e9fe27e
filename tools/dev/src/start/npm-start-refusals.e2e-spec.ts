import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { apiOf, npmStartSession } from './npm-start-kit';

/**
 * Issue 48: `npm start` as a durable workplace, run the way a person runs it (the real command, a
 * data directory of its own, Ctrl-C to its process group as a terminal sends it). Each test waits
 * for what it needs (a line, an answer); the suite's one bound is Jest's per test.
 */
describe('npm start, refused and interrupted', () => {
  const { newPlace, start, cleanUp } = npmStartSession();
  afterAll(cleanUp, 120_000);

  describe('a port that is taken', () => {
    let holder: Server;
    afterEach(async () => {
      await new Promise((resolve) => holder.close(resolve));
    });

    it.each([
      ['PORT', 'the gateway'],
      ['CUSTOMERS_V1_PORT', 'customers-v1'],
    ])(
      'taken at %s stops npm start before anything starts, naming the port, its holder and the variable',
      async (variable, what) => {
        const place = await newPlace();
        const port = place.ports[variable] as number;
        holder = createServer();
        await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
        const proc = start(place, { SEED: 'false' });
        expect(await proc.exited).toBe(1);
        const lines = proc.text
          .split('\n')
          .filter((line) => line.startsWith('npm start:') || line.startsWith('port '));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^npm start: port ${port} \\(${what}\\) is in use by pid ${process.pid} \\(.+\\): stop that, or set ${variable} to another port$`,
          ),
        );
        // Nothing was started or migrated: no cluster, no keys, and the lock is given back.
        expect(await readdir(place.dataDir)).toEqual([]);
      },
      120_000,
    );
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
      const proc = start(place, { SEED: 'small' });
      await proc.waitFor(line, moment);
      expect([moment, await proc.interrupt()]).toEqual([
        moment,
        expect.stringMatching(/^(stopped|interrupted start-up)$/),
      ]);
      expect([moment, existsSync(join(place.dataDir, 'npm-start.lock'))]).toEqual([moment, false]);
    }
    const last = start(place, { SEED: 'false' });
    const [, baseUrl] = await last.ready();
    const { call } = await apiOf(place, baseUrl as string);
    const created = await call('/v1/customer', {
      method: 'POST',
      body: { name: 'After four interruptions' },
    });
    expect(created.status).toBe(201);
    expect((await call(`/v1/customer/${JSON.parse(created.text).number as string}`)).status).toBe(200);
    expect(await last.interrupt()).toBe('stopped');
  }, 600_000);
});
