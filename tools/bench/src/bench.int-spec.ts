import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { dropDatabase } from '@erp/database';
import type { RunningSystem } from '@erp/dev';
import { testDatabaseName, testDatabaseServerUrl, testKafkaBrokers } from '@erp/testing';
import { createCustomersBaseline } from './baseline/customers-baseline';
import { loadCustomers } from './data/customers.generator';
import { markdownReport } from './framework/report';
import { runScenarios, startBenchSystem } from './framework/run-bench';
import { customersListScenario } from './scenarios/customers-list.scenario';

const COMPANY = 'bench-body-check';
let system: RunningSystem;
const databases: string[] = [];

/** The bench machinery at tiny size against the real system: it must not rot between full runs. */
describe('tools/bench against the real system', () => {
  beforeAll(async () => {
    system = await startBenchSystem({
      databaseServerUrl: testDatabaseServerUrl(),
      databaseName: (name) => {
        const unique = testDatabaseName(`bench_${name}`);
        databases.push(unique);
        return unique;
      },
      kafkaBrokers: testKafkaBrokers(),
      services: customersListScenario.services,
      systemEnv: { LOG_LEVEL: 'warn' },
    });
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
    for (const name of databases) await dropDatabase(testDatabaseServerUrl(), name);
  });

  it('the baseline answers byte for byte what customers-v1 answers, for bucketed and filtered lists', async () => {
    const sql = new Client({ connectionString: system.databaseUrls['customers-v1'] });
    await sql.connect();
    await loadCustomers(sql, { companies: [{ companyId: COMPANY, count: 1500 }, { companyId: 'bench-other', count: 500 }], seed: 7 });
    // A status change and a delete: the counts the fast path reads must follow.
    await sql.query(`UPDATE customers SET status = 'OnHold' WHERE company_id = $1 AND number IN ('10005', '10700')`, [COMPANY]);
    await sql.query(`DELETE FROM customers WHERE company_id = $1 AND number = '10010'`, [COMPANY]);
    await sql.end();
    const baseline = createCustomersBaseline({ databaseUrl: system.databaseUrls['customers-v1'] });
    await new Promise<void>((resolve) => baseline.server.listen(0, '127.0.0.1', resolve));
    const baselineUrl = `http://127.0.0.1:${(baseline.server.address() as AddressInfo).port}`;
    const token = await signDevToken(system.keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read' });
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'erp-bench' };
    try {
      for (const query of [
        'status=Active&pageSize=100&pageNumber=1',
        'status=Active&pageSize=100&pageNumber=7',
        'status=Active&pageSize=100&pageNumber=12',
        'status=Active&pageSize=100&pageNumber=13',
        'status=OnHold&pageSize=10&pageNumber=1',
        'pageSize=250&pageNumber=3',
        '',
        'name=bygg&pageSize=50&pageNumber=2',
        'status=Active&createdDateTime=2023-01-01&pageSize=100&pageNumber=4',
      ]) {
        const service = await fetch(`${system.serviceUrls['customers-v1']}/v1/customer?${query}`, { headers });
        const gateway = await fetch(`${system.baseUrl}/v1/customer?${query}`, { headers });
        const own = await fetch(`${baselineUrl}/v1/customer?${query}`, { headers });
        expect([service.status, gateway.status, own.status]).toEqual([200, 200, 200]);
        const text = await service.text();
        expect(await own.text()).toBe(text);
        expect(await gateway.text()).toBe(text);
      }
      // The total read from the bucket counts is the number of records the pages hold.
      let received = 0;
      let totalCount = -1;
      for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
        const page = (await (await fetch(`${baselineUrl}/v1/customer?status=Active&pageNumber=${pageNumber}`, { headers })).json()) as Array<{
          metadata: { totalCount: number };
        }>;
        if (page.length > 0) totalCount = page[0].metadata.totalCount;
        received += page.length;
      }
      expect(received).toBe(totalCount);
    } finally {
      await baseline.close();
    }
  }, 60_000);

  it('runs the customer list scenario at tiny size and reports every target, ratio and process', async () => {
    const lines: string[] = [];
    const results = await runScenarios(system, {
      scenarios: [customersListScenario],
      load: { connections: 4, durationSeconds: 2, warmupSeconds: 0, rounds: 1 },
      options: { 'customers.sizes': '2000' },
      log: (line) => lines.push(line),
    });

    expect(results.machine.cpus).toBeGreaterThan(0);
    expect(results.scenarios).toHaveLength(1);
    const [report] = results.scenarios;
    expect(report.scenario).toBe('customers-list');
    expect(report.cases.map((c) => c.name)).toEqual(['2k']);
    const [only] = report.cases;
    expect(only.measurements.map((m) => m.target)).toEqual(['gateway', 'direct', 'baseline']);
    for (const m of only.measurements) {
      expect(m.rps).toBeGreaterThan(0);
      expect(m.p50Ms).toBeGreaterThan(0);
      expect(m.p99Ms).toBeGreaterThanOrEqual(m.p50Ms);
      expect(m.errors + m.non2xx).toBe(0);
    }
    expect(Object.keys(only.ratios)).toEqual(['gateway/baseline', 'direct/baseline']);
    expect(Object.keys(only.memory).sort()).toEqual(['api-gateway', 'customers-baseline', 'customers-v1']);
    if (process.platform === 'linux') {
      for (const memory of Object.values(only.memory)) expect(memory.peakRssMiB).toBeGreaterThan(10);
    }
    expect(report.targets).toEqual([]); // the targets need the 10k/100k/1M cases
    expect(markdownReport(results)).toContain('| 2k |');
  }, 90_000);
});
