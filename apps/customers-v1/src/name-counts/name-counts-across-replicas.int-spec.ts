import type { RunningTestService } from '@erp/testing';
import { RecordingFetch } from '@erp/testing';
import { CUSTOMER_SETTINGS, type CustomerSettings } from '../customers/customer-settings';
import { startCustomersReplica, type CustomersTestApp } from '../testing/customers-test-app';
import * as nameCounts from '../testing/customer-name-counts-testing';
import { NameCountScheduler } from './name-count-scheduler';
import { NameFragmentRegistration } from './name-fragment-registration';

const { NAME_COMPANY: COMPANY, NAME_OTHER: OTHER, NAME_PER_COMPANY: PER_COMPANY } = nameCounts;

/**
 * Two replicas of customers-v1 on one database, as `REPLICAS=2` or a Deployment runs them: the
 * limits of name-count registration are the company's, not each process's, so two replicas
 * register no more than one would.
 */
describe('name-count registration limits across two replicas', () => {
  let a: CustomersTestApp;
  let b: RunningTestService;
  let bHttp: RecordingFetch;
  let headers: Record<string, string>;
  const { registered, expectNameCellsExact } = nameCounts.nameCountHelpers(
    () => a,
    () => headers,
  );
  const registrationOf = (app: RunningTestService) => app.app.get(NameFragmentRegistration);
  const settingsOf = (app: RunningTestService) => app.app.get<CustomerSettings>(CUSTOMER_SETTINGS).nameCounts;

  /** A search through replica B (its exact count may register the fragment there), then B's registrations settled. */
  async function searchOnB(name: string): Promise<void> {
    const response = await bHttp.request(`/v1/customer?${new URLSearchParams({ name, pageSize: '1' })}`, { headers });
    expect(response.status).toBe(200);
    await response.text();
    await b.app.get(NameCountScheduler).settled();
  }

  async function building(companyId: string): Promise<string[]> {
    const { rows } = await a.sql.query<{ fragment: string }>(
      `SELECT fragment FROM customer_name_fragments WHERE company_id = $1 AND state = 'building' ORDER BY fragment`,
      [companyId],
    );
    return rows.map((r) => r.fragment);
  }

  beforeAll(async () => {
    a = await nameCounts.startNameCountsApp();
    b = await startCustomersReplica(a, nameCounts.NAME_COUNTS_ENV);
    bHttp = new RecordingFetch(b.url, b.loggedErrors);
    headers = await a.auth.headers({ company: COMPANY });
  }, 120_000);
  afterAll(async () => {
    expect(a.http.serverErrors()).toEqual([]);
    expect(bHttp.serverErrors()).toEqual([]);
    await b?.close();
    await a?.close();
  });

  it("runs one registration of a company at a time across replicas: the other replica's is busy meanwhile, and another company's goes ahead", async () => {
    await nameCounts.setBackfill(a.sql, 'slow');
    try {
      const onA = registrationOf(a.service).register(COMPANY, 'bygg_co', PER_COMPANY);
      await nameCounts.waitForBackfill(a.sql);
      // B, directly and through a search, while A's registration of the company backfills.
      expect(await registrationOf(b).register(COMPANY, 'nordbygg', PER_COMPANY)).toBe('busy');
      await searchOnB('nordbygg');
      expect(await building(COMPANY)).toEqual(['bygg_co']);
      // The claim is per company: B registers another company's fragment meanwhile.
      await nameCounts.setBackfill(a.sql, 'normal');
      expect(await registrationOf(b).register(OTHER, 'bygg', PER_COMPANY)).toBe('registered');
      await nameCounts.setBackfill(a.sql, 'slow');
      expect(await onA).toBe('registered');
    } finally {
      await nameCounts.setBackfill(a.sql, 'normal');
    }
    // Once A's has ended, B's is next.
    expect(await registered()).toEqual(['bygg_co']);
    expect(await registrationOf(b).register(COMPANY, 'nordbygg', PER_COMPANY)).toBe('registered');
    expect(await registered()).toEqual(['bygg_co', 'nordbygg']);
    await expectNameCellsExact();
  }, 90_000);

  it('replaces a kept fragment at most once per CUSTOMER_NAME_COUNT_REPLACE_INTERVAL_MS across replicas', async () => {
    const interval = 60_000;
    settingsOf(a.service).replaceIntervalMs = interval;
    settingsOf(b).replaceIntervalMs = interval;
    try {
      // Free places fill at once, in either replica.
      expect(await registrationOf(a.service).register(COMPANY, 'customer 2', PER_COMPANY)).toBe('registered');
      expect(await registrationOf(b).register(COMPANY, 'customer 3', PER_COMPANY)).toBe('registered');
      expect(await registered()).toHaveLength(PER_COMPANY);
      // Full: A replaces one, and B may not replace another within the interval, however asked.
      expect(await registrationOf(a.service).register(COMPANY, 'customer 4', PER_COMPANY)).toBe('registered');
      expect(await registrationOf(b).register(COMPANY, 'customer 5', PER_COMPANY)).toBe('throttled');
      await searchOnB('customer 6');
      const kept = await registered();
      expect(kept).toContain('customer 4');
      expect(kept).not.toContain('customer 5');
      expect(kept).not.toContain('customer 6');
      expect(kept).toHaveLength(PER_COMPANY);
      await expectNameCellsExact();
    } finally {
      settingsOf(a.service).replaceIntervalMs = 0;
      settingsOf(b).replaceIntervalMs = 0;
    }
  });

  it('does not try again in one replica a fragment whose registration failed in the other, before its retry is due', async () => {
    await nameCounts.setBackfill(a.sql, 'failing');
    try {
      const response = await a.http.request(`/v1/customer?${new URLSearchParams({ name: 'customer 7', pageSize: '1' })}`, { headers });
      expect(response.status).toBe(200);
      await response.text();
      await a.service.app.get(NameCountScheduler).settled();
    } finally {
      await nameCounts.setBackfill(a.sql, 'normal');
    }
    const { rows } = await a.sql.query(`SELECT fragment FROM customer_name_retries WHERE company_id = $1 AND not_before > now()`, [COMPANY]);
    expect(rows).toEqual([{ fragment: 'customer 7' }]);
    // The backfill works again, but B leaves the fragment alone until the retry is due.
    await searchOnB('customer 7');
    expect(await registered()).not.toContain('customer 7');
    expect(await building(COMPANY)).toEqual([]);
    await expectNameCellsExact();
  });
});
