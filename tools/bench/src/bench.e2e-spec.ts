import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { dropDatabase } from '@erp/database';
import type { RunningSystem } from '@erp/dev';
import { testSystemBuild } from '@erp/dev/testing';
import { testDatabaseName, testDatabaseServerUrl, testKafkaBrokers } from '@erp/testing';
import { createCustomersBaseline } from './baseline/customers-baseline';
import { createSalesOrdersBaseline } from './baseline/sales-orders-baseline';
import { loadCustomers } from './data/customers.generator';
import { loadSalesOrders } from './data/sales-orders.generator';
import { loadSupplierInvoices } from './data/supplier-invoices.generator';
import { markdownReport } from './framework/report';
import { runScenarios, startBenchSystem } from './framework/run-bench';
import type { LoadSettings } from './framework/scenario';
import { attachmentsScenario } from './scenarios/attachments.scenario';
import { customersListScenario } from './scenarios/customers-list.scenario';
import { filteredPagingScenario } from './scenarios/filtered-paging.scenario';
import { mixedScenario } from './scenarios/mixed.scenario';
import { requestStagesScenario } from './scenarios/request-stages.scenario';
import { salesOrdersExpandScenario } from './scenarios/sales-orders-expand.scenario';

const COMPANY = 'bench-body-check';
const SCENARIOS = [customersListScenario, salesOrdersExpandScenario, mixedScenario, attachmentsScenario, filteredPagingScenario];
const TINY: LoadSettings = { connections: 4, durationSeconds: 2, warmupSeconds: 0, rounds: 1 };
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
      // As every e2e system: the image builds under the e2e target (TEST_SYSTEM_BUILD), the source otherwise.
      build: testSystemBuild(),
      services: [...new Set(SCENARIOS.flatMap((x) => x.services))],
      systemEnv: { ...attachmentsScenario.systemEnv, LOG_LEVEL: 'warn' },
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
      load: TINY,
      options: { 'customers.sizes': '2000' },
      log: (line) => lines.push(line),
    });

    expect(results.machine.cpus).toBeGreaterThan(0);
    expect(results.scenarios).toHaveLength(1);
    const [report] = results.scenarios;
    expect(report.scenario).toBe('customers-list');
    expect(report.cases.map((c) => c.name)).toEqual(['2k']);
    const [only] = report.cases;
    expect(only.measurements.map((m) => m.target)).toEqual(['gateway', 'direct', 'baseline', 'proxy floor']);
    for (const m of only.measurements) {
      expect(m.rps).toBeGreaterThan(0);
      expect(m.p50Ms).toBeGreaterThan(0);
      expect(m.p99Ms).toBeGreaterThanOrEqual(m.p50Ms);
      expect(m.errors + m.non2xx).toBe(0);
    }
    expect(Object.keys(only.ratios)).toEqual(['gateway/baseline', 'direct/baseline', 'gateway/direct', 'proxy floor/direct']);
    expect(Object.keys(only.memory)).toEqual(expect.arrayContaining(['api-gateway', 'customers-baseline', 'customers-v1', 'proxy-floor']));
    if (process.platform === 'linux') {
      for (const memory of Object.values(only.memory)) expect(memory.peakRssMiB).toBeGreaterThan(10);
      // The tests' PostgreSQL runs on this machine: its CPU per request is measured beside the
      // processes', and so is the load generator's.
      for (const m of only.measurements) {
        expect(m.databaseCpuMsPerRequest).toBeGreaterThan(0);
        expect(m.loadGeneratorCpuMsPerRequest).toBeGreaterThan(0);
      }
      // Four processes, PostgreSQL, the load generator and the sum: all measured.
      expect(report.notes?.join('\n')).toMatch(/\| 2k \| direct( \| \d+\.\d\d){7} \|/);
      // The gateway's own CPU and the proxy floor's, both measured, and what the gateway adds.
      expect(report.notes?.join('\n')).toMatch(/\| 2k \| \d+\.\d\d \| \d+\.\d\d \| -?\d+\.\d\d \|/);
    }
    expect(report.targets).toEqual([]); // the targets need the 10k/100k/1M cases
    expect(markdownReport(results)).toContain('| 2k |');
  }, 90_000);

  it('runs the request-stages scenario at tiny size: every switched stage in a process of its own, each with its own CPU', async () => {
    const results = await runScenarios(system, { scenarios: [requestStagesScenario], load: TINY, options: { 'stages.size': '1000' }, log: () => undefined });
    const [report] = results.scenarios;
    expect(report.cases.map((c) => c.name)).toEqual(['as shipped', 'statements not prepared', 'request lines off', 'lines written one by one', 'request lines as in 1.0.0', 'tracing on', 'baseline']);
    for (const c of report.cases) {
      const [m] = c.measurements;
      expect(m.rps).toBeGreaterThan(0);
      expect(m.errors + m.non2xx).toBe(0);
      // Only the answering process's CPU, and it did work.
      expect(Object.values(m.cpuMsPerRequest ?? {})).toEqual([expect.any(Number)]);
      expect(Object.values(m.cpuMsPerRequest ?? {})[0]).toBeGreaterThan(0);
    }
    expect(report.cases[0].ratios['CPU / as shipped']).toBe(1);
    expect(report.notes?.join('\n')).toContain('| request lines as in 1.0.0 | LOG_REQUESTS=all LOG_BUFFER_BYTES=0');
  }, 120_000);

  it('runs the filtered-paging scenario at tiny size: every filter, both depths, the sync and its floors', async () => {
    const lines: string[] = [];
    const results = await runScenarios(system, {
      scenarios: [filteredPagingScenario],
      load: TINY,
      options: {
        'filtered.customers': '3000',
        'filtered.invoices': '2000',
        'filtered.orders': '3000',
        'filtered.samples': '1',
        'filtered.syncBudgetSeconds': '60',
        'filtered.churnSeconds': '2',
      },
      log: (line) => lines.push(line),
    });
    const [report] = results.scenarios;
    expect(report.scenario).toBe('filtered-paging');
    expect(report.cases.length).toBeGreaterThan(20);
    const all = report.cases.find((c) => c.name === 'lastModified >= (all rows)');
    expect(all?.facts['totalCount']).toBe(3000);
    // The writer beside the name search churn: alone, with counts off, with counts on, each timed.
    const churn = report.cases.find((c) => c.name === 'writes during name search churn');
    expect(churn?.measurements.map((m) => m.target)).toEqual(['writer alone', 'searches, counts off', 'searches, counts on']);
    for (const m of churn?.measurements ?? []) expect(m.requests).toBeGreaterThan(0);
    expect(Number(churn?.facts['searches counts on'])).toBeGreaterThan(0);
    expect(report.targets.filter((t) => t.description.startsWith('writes during name search churn'))).toHaveLength(2);
    for (const c of report.cases.filter((c) => c !== churn)) {
      expect(c.measurements.map((m) => m.target)).toEqual(['page 1', 'last page']);
      expect(Number.isFinite(c.ratios['last/first'])).toBe(true);
    }
    // The sync finished (a ratio, not NaN) over every row.
    const sync = report.targets.find((t) => t.description.startsWith('full sync'));
    expect(Number.isFinite(sync?.value)).toBe(true);
    expect(report.notes?.join(' ')).toContain('3000 records');
    // The writes beside kept name counts (none kept at this size: no fragment matches 5,000 customers).
    expect(report.notes?.join(' ')).toMatch(/Writes with kept name counts: .* \d+(\.\d+)? ms in the company keeping counts of 0 name fragments, \d+(\.\d+)? ms in the noise company/);
    // The invoice part: its own unfiltered denominator, every filter's total from the loaded rows.
    const invoices = report.cases.filter((c) => c.name.startsWith('invoices: '));
    expect(invoices.length).toBeGreaterThan(15);
    expect(invoices[0].name).toBe('invoices: no filter');
    expect(invoices.find((c) => c.name === 'invoices: lastModified >= (all rows)')?.facts['totalCount']).toBe(2000);
    for (const c of invoices) expect(Number.isFinite(c.ratios['first/unfiltered first'])).toBe(true);
    expect(report.targets.some((t) => t.description.startsWith('invoices: supplier (largest)'))).toBe(true);
    // The orders part: every filter with every orderBy, the unfiltered list counting every order.
    const orders = report.cases.filter((c) => c.name.startsWith('orders: '));
    expect(orders.length).toBe(84);
    expect(orders.find((c) => c.name === 'orders: unfiltered, orderId desc')?.facts['totalCount']).toBe(3000);
    expect(orders.find((c) => c.name === 'orders: modifiedSince=start (all), created')?.facts['totalCount']).toBe(3000);
    expect(report.targets.some((t) => t.description.startsWith('orders: status=Open, lastModified desc: '))).toBe(true);
  }, 180_000);

  it('runs only the parts --filtered.parts names', async () => {
    const results = await runScenarios(system, {
      scenarios: [filteredPagingScenario],
      load: TINY,
      options: { 'filtered.parts': 'invoices', 'filtered.invoices': '1500', 'filtered.samples': '1' },
    });
    const [report] = results.scenarios;
    expect(report.cases.every((c) => c.name.startsWith('invoices: '))).toBe(true);
    expect(report.targets.some((t) => t.description.startsWith('full sync'))).toBe(false);
    await expect(runScenarios(system, { scenarios: [filteredPagingScenario], load: TINY, options: { 'filtered.parts': 'invoice' } })).rejects.toThrow(/filtered.parts/);
  }, 120_000);

  it('loads supplier invoices whose amounts follow the service rules, and the service keeps numbering after them', async () => {
    const sql = new Client({ connectionString: system.databaseUrls['supplier-invoices-v1'] });
    await sql.connect();
    try {
      const company = 'bench-invoices-check';
      const report = await loadSupplierInvoices(sql, { companies: [{ companyId: company, count: 900 }, { companyId: 'bench-invoices-other', count: 100 }], seed: 3 });
      expect(report.byCompany).toEqual({ [company]: 900, 'bench-invoices-other': 100 });
      expect(report.lines).toBeGreaterThanOrEqual(1000);
      expect(report.lines).toBeLessThanOrEqual(3000);
      const { rows: wrong } = await sql.query(
        `SELECT i.reference_number FROM supplier_invoices i
         WHERE i.company_id = $1 AND (i.amount <> i.vat_amount + (SELECT sum(l.amount) FROM supplier_invoice_lines l WHERE l.invoice_id = i.internal_id)
           OR i.balance <> CASE WHEN i.status = 'Closed' THEN 0 ELSE i.amount END
           OR EXISTS (SELECT 1 FROM supplier_invoice_lines l WHERE l.invoice_id = i.internal_id AND l.amount <> round(l.quantity * l.unit_price, 2)))`,
        [company],
      );
      expect(wrong).toEqual([]);
      const token = await signDevToken(system.keys.privateKeyPem, { companies: [company], scope: 'erp:read erp:write' });
      const created = await fetch(`${system.serviceUrls['supplier-invoices-v1']}/v1/supplierInvoice`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'ipp-company-id': company, 'ipp-application-type': 'erp-bench', 'content-type': 'application/json' },
        body: JSON.stringify({ supplier: { number: 'S00001' } }),
      });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { referenceNumber: string }).referenceNumber).toBe('000901');
    } finally {
      await sql.end();
    }
  }, 60_000);

  it('the sales orders baseline answers byte for byte what sales-orders-v3 answers, nextPage links included', async () => {
    const company = 'bench-orders-check';
    const sql = new Client({ connectionString: system.databaseUrls['sales-orders-v3'] });
    await sql.connect();
    await loadSalesOrders(sql, { companies: [{ companyId: company, orders: 23, linesPerOrder: 7 }, { companyId: 'bench-orders-other', orders: 5, linesPerOrder: 2 }], seed: 9 });
    await sql.end();
    const baseline = createSalesOrdersBaseline({ databaseUrl: system.databaseUrls['sales-orders-v3'] });
    await new Promise<void>((resolve) => baseline.server.listen(0, '127.0.0.1', resolve));
    const baselineUrl = `http://127.0.0.1:${(baseline.server.address() as AddressInfo).port}`;
    const token = await signDevToken(system.keys.privateKeyPem, { companies: [company], scope: 'erp:read' });
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': company };
    try {
      for (const query of [
        'expand=lines&pageSize=10&pageIndex=0',
        'expand=lines&pageSize=10&pageIndex=2',
        'expand=lines&pageSize=100&pageIndex=0',
        'pageSize=5&pageIndex=1',
        'status=Open&orderBy=orderId%20desc&pageSize=4',
        '',
      ]) {
        const path = `/api/v3/SalesOrders?${query}`;
        const service = await fetch(`${system.serviceUrls['sales-orders-v3']}${path}`, { headers });
        const gateway = await fetch(`${system.baseUrl}${path}`, { headers });
        const own = await fetch(`${baselineUrl}${path}`, { headers });
        expect([service.status, gateway.status, own.status]).toEqual([200, 200, 200]);
        const text = await service.text();
        expect(await own.text()).toBe(text);
        expect(await gateway.text()).toBe(text);
      }
      const page = (await (await fetch(`${baselineUrl}/api/v3/SalesOrders?expand=lines&pageSize=10&pageIndex=0`, { headers })).json()) as {
        value: Array<{ lines: Array<{ extendedPrice: number }> }>;
        totalCount: number;
        nextPage: string | null;
      };
      expect(page.totalCount).toBe(23); // the other company's orders are not counted
      expect(page.value.map((o) => o.lines.length)).toEqual(Array(10).fill(7));
      expect(page.nextPage).toContain('pageIndex=1');
      expect((await fetch(`${baselineUrl}/api/v3/SalesOrders?pageSize=nope`, { headers })).status).toBe(400);
    } finally {
      await baseline.close();
    }
  }, 60_000);

  it('runs the sales orders, mixed and attachments scenarios at tiny size and reports every figure', async () => {
    const results = await runScenarios(system, {
      scenarios: [salesOrdersExpandScenario, mixedScenario, attachmentsScenario],
      load: TINY,
      options: {
        'sales-orders.orders': '12',
        'sales-orders.lines': '20',
        'sales-orders.single-reads': '2',
        'mixed.clients': '8',
        'mixed.customers': '300',
        'mixed.orders': '30',
        'mixed.hot': '3',
        'attachments.sizes-mib': '1',
      },
      log: () => undefined,
    });
    const [orders, mixed, attachments] = results.scenarios;

    expect(orders.cases.map((c) => c.name)).toEqual(['pageSize=100', 'pageSize=10']);
    for (const c of orders.cases) {
      expect(c.measurements.map((m) => m.target)).toEqual(['gateway', 'direct', 'baseline']);
      for (const m of c.measurements) expect([m.rps > 0, m.errors + m.non2xx]).toEqual([true, 0]);
      expect(Object.keys(c.ratios)).toEqual(['gateway/baseline', 'direct/baseline', 'gateway/direct']);
      expect(c.memory['sales-orders-baseline']).toBeDefined();
    }
    expect(orders.targets.map((t) => t.description)).toEqual([
      'pageSize=100: gateway throughput / baseline',
      'one page of 100 orders, one client via the gateway: median ms',
      'sales-orders-v3 RSS growth MiB',
    ]);
    for (const t of orders.targets) expect(Number.isFinite(t.value)).toBe(true);
    expect(orders.notes?.join('\n')).toContain('One client through the gateway, 2 pages');

    const byName = new Map(mixed.cases.map((c) => [c.name, c]));
    const all = byName.get('mix: every request');
    expect(all?.measurements.map((m) => m.target)).toEqual(['gateway', 'direct']);
    expect(mixed.targets.map((t) => [t.description, t.value])).toEqual([['mix: gateway / direct throughput', all?.ratios['gateway/direct']]]);
    for (const m of all?.measurements ?? []) {
      expect(m.rps).toBeGreaterThan(0);
      expect(m.errors + m.non2xx).toBe(0); // a 412 is counted in statusCounts, not as a failure
      expect(Object.keys(m.statusCounts ?? {})).toEqual(expect.arrayContaining(['200', '202', '204'])); // reads, orders PATCH, customers PUT
    }
    for (const name of ['customers list', 'customers get', 'customers PUT If-Match', 'orders list', 'orders get', 'orders PATCH If-Match']) {
      expect(byName.get(`mix: ${name}`)?.measurements[0].requests).toBeGreaterThan(0);
    }
    const lists = byName.get('lists only (customers + orders)');
    expect(lists?.measurements.map((m) => m.target)).toEqual(['gateway', 'direct', 'baseline']);
    expect(Object.keys(lists?.ratios ?? {})).toEqual(['gateway/baseline', 'direct/baseline', 'gateway/direct']);
    expect(mixed.notes?.[0]).toContain('412');

    expect(attachments.rate).toBe('MiB/s');
    expect(attachments.cases.map((c) => c.name)).toEqual(['upload 1 MiB', 'download raw 1 MiB', 'download Base64 1 MiB']);
    for (const c of attachments.cases) {
      expect(c.measurements.map((m) => m.target)).toEqual(['gateway', 'direct', 'node floor', 'baseline']);
      for (const m of c.measurements) expect([m.bytesPerSecond > 0, m.errors]).toEqual([true, 0]);
      for (const ratio of ['gateway/baseline', 'direct/node floor', 'node floor/baseline']) expect(Number.isFinite(c.ratios[ratio])).toBe(true);
    }
    expect(attachments.notes?.[0]).toMatch(/^1 MiB: RSS before → peak while transferring: attachments-v1 [\d.]+ → [\d.]+ MiB/);

    const markdown = markdownReport(results);
    expect(markdown).toContain('| pageSize=100 |');
    expect(markdown).toContain('| mix: orders PATCH If-Match |');
    expect(markdown).toContain('gateway MiB/s');
    expect(markdown).toContain('| gateway/direct |');
  }, 240_000);
});
