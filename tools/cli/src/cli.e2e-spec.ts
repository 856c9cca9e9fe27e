import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import type { TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';
import { ExitCode } from './exit-codes';
import { parseCsv } from './test-support/csv-parse';
import { runCli, runCliInTerminal } from './test-support/run-cli';
import { apiCaller, COMPANY, createCustomers, startCliSystem } from './test-support/system';

const CUSTOMERS = 230;
const PAGE_SIZE = '40';
const auth = new TestAuth();
const api = apiCaller(() => testSystem.system.baseUrl, auth);
let testSystem: TestSystem;
let baseUrl: string;
let env: Record<string, string>;
let workDir: string;
let customers: Array<{ number: string; name: string }>;

/** Names that need CSV quoting: commas, double quotes, both. */
function customerName(i: number): string {
  return [`Plain Customer ${i}`, `Smith, Jones & Co ${i}`, `The "Best" Shop ${i}`, `"Quoted", and, commas ${i}`][i % 4];
}

/** A port nothing listens on: one the OS just handed out and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function oneLine(stderr: string): string {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  return stderr;
}

/** token, list, get, export, progress and exit codes, spawned as processes (customers-v1 behind the gateway). */
describe('erp CLI: token, list, get, export, errors', () => {
  beforeAll(async () => {
    testSystem = await startCliSystem('cli', ['customers-v1'], auth);
    baseUrl = testSystem.system.baseUrl;
    env = { ERP_BASE_URL: baseUrl, ERP_TOKEN: await auth.token({ companies: [COMPANY] }), ERP_COMPANY: COMPANY };
    workDir = mkdtempSync(join(tmpdir(), 'erp-cli-'));
    customers = await createCustomers(api, CUSTOMERS, customerName);
  }, 600_000);

  afterAll(async () => {
    await testSystem?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 120_000);

  describe('token', () => {
    it('prints a dev token signed with the key in $ERP_DATA_DIR/dev-keys that the API accepts', async () => {
      // The system under test trusts auth's key: put it where `erp token` looks for the dev key.
      const dataDir = join(workDir, 'data');
      mkdirSync(join(dataDir, 'dev-keys'), { recursive: true });
      writeFileSync(join(dataDir, 'dev-keys', 'dev-private.pem'), auth.keys.privateKeyPem);
      writeFileSync(join(dataDir, 'dev-keys', 'dev-public.pem'), auth.keys.publicKeyPem);
      const printed = await runCli(['token', '--company', COMPANY, '--company', '2000002', '--scope', 'erp:read', '--hours', '1'], { ERP_DATA_DIR: dataDir });
      expect(printed.stderr).toBe('');
      expect(printed.code).toBe(ExitCode.Ok);
      const devToken = printed.stdout.toString().trim();
      const claims = decodeJwt(devToken);
      expect(claims).toMatchObject({ companies: [COMPANY, '2000002'], scope: 'erp:read' });
      expect(claims.exp! - claims.iat!).toBe(3600);
      const listed = await runCli(['list', 'customers', '--limit', '1'], { ...env, ERP_TOKEN: devToken });
      expect(listed.code).toBe(ExitCode.Ok);
      expect(JSON.parse(listed.stdout.toString())).toHaveLength(1);
    }, 120_000);
  });

  describe('list and get', () => {
    it('lists every record across pages as a JSON array', async () => {
      const result = await runCli(['list', 'customers', '--page-size', PAGE_SIZE], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(ExitCode.Ok);
      const records = JSON.parse(result.stdout.toString()) as Array<Record<string, unknown>>;
      expect(records.map((r) => r.number)).toEqual(customers.map((c) => c.number).sort());
      expect(records[0]).not.toHaveProperty('metadata');
    }, 120_000);

    it('applies --filter and --limit', async () => {
      const filtered = await runCli(['list', 'customers', '--filter', 'name=Best', '--page-size', '7'], env);
      expect(filtered.code).toBe(ExitCode.Ok);
      const names = (JSON.parse(filtered.stdout.toString()) as Array<{ name: string }>).map((r) => r.name);
      expect(names.sort()).toEqual(customers.filter((c) => c.name.includes('Best')).map((c) => c.name).sort());
      const limited = await runCli(['list', 'customers', '--limit', '3', '--page-size', '2'], env);
      expect(JSON.parse(limited.stdout.toString())).toHaveLength(3);
    }, 120_000);

    it('prints a table with a header, a rule and one line per record', async () => {
      const result = await runCli(['list', 'customers', '--output', 'table', '--columns', 'number,name,status'], env);
      expect(result.code).toBe(ExitCode.Ok);
      const lines = result.stdout.toString().trimEnd().split('\n');
      expect(lines[0]).toMatch(/^number\s+name\s+status$/);
      expect(lines[1]).toMatch(/^-+ {2}-+ {2}-+$/);
      expect(lines).toHaveLength(CUSTOMERS + 2);
      const first = customers[0];
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${first.number}\\s+${first.name}\\s+Active$`)));
    }, 120_000);

    it('gets one record as JSON and as a field/value table', async () => {
      const { number, name } = customers[5];
      const json = await runCli(['get', 'customers', number], env);
      expect(json.code).toBe(ExitCode.Ok);
      expect(JSON.parse(json.stdout.toString())).toMatchObject({ number, name, status: 'Active' });
      const table = await runCli(['get', 'customers', number, '-o', 'table'], env);
      expect(table.code).toBe(ExitCode.Ok);
      expect(table.stdout.toString()).toMatch(new RegExp(`^number\\s+${number}$`, 'm'));
      expect(table.stdout.toString()).toMatch(/^status\s+Active$/m);
    }, 120_000);
  });

  describe('export', () => {
    it('writes NDJSON: one line per record, every record exactly once', async () => {
      const result = await runCli(['export', 'customers', '--format', 'ndjson', '--page-size', PAGE_SIZE], env);
      expect(result.code).toBe(ExitCode.Ok);
      expect(result.stderr).toBe('');
      const lines = result.stdout.toString().split('\n');
      expect(lines.pop()).toBe('');
      const numbers = lines.map((line) => (JSON.parse(line) as { number: string }).number);
      expect(numbers).toHaveLength(CUSTOMERS);
      expect(new Set(numbers)).toEqual(new Set(customers.map((c) => c.number)));
    }, 120_000);

    it('writes CSV to --out with a header and correct quoting of commas and quotes', async () => {
      const out = join(workDir, 'customers.csv');
      const result = await runCli(['export', 'customers', '--format', 'csv', '--out', out, '--page-size', PAGE_SIZE], env);
      expect(result.code).toBe(ExitCode.Ok);
      expect(result.stdout.length).toBe(0);
      const [header, ...rows] = parseCsv(readFileSync(out, 'utf8'));
      // The first record's fields; these customers have no address (null), so no mainAddress.* columns.
      expect(header.slice(0, 4)).toEqual(['internalId', 'number', 'name', 'status']);
      expect(header).not.toContain('metadata.totalCount');
      expect(rows).toHaveLength(CUSTOMERS);
      const at = (name: string) => header.indexOf(name);
      const byNumber = new Map(rows.map((row) => [row[at('number')], row]));
      expect(byNumber.size).toBe(CUSTOMERS);
      for (const customer of customers) expect(byNumber.get(customer.number)?.[at('name')]).toBe(customer.name);
      expect(rows.every((row) => row.length === header.length)).toBe(true);
    }, 120_000);

    it('draws a progress bar (records, total, rate) on a terminal', async () => {
      const out = join(workDir, 'tty.ndjson');
      const result = await runCliInTerminal(['export', 'customers', '--out', out, '--page-size', PAGE_SIZE], env);
      const screen = result.stdout.toString();
      expect(result.code).toBe(ExitCode.Ok);
      expect(screen).toContain('Exporting customers');
      expect(screen).toContain(`${CUSTOMERS}/${CUSTOMERS} records`);
      expect(screen).toMatch(/\d+ records\/s/);
      expect(screen).toContain(`Exported ${CUSTOMERS} customers to ${out}`);
      expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(CUSTOMERS);
    }, 120_000);

    it('stays quiet when stderr is not a terminal', async () => {
      const out = join(workDir, 'quiet.ndjson');
      const result = await runCli(['export', 'customers', '--out', out, '--page-size', PAGE_SIZE], env);
      expect(result.code).toBe(ExitCode.Ok);
      expect(result.stderr).toBe('');
      expect(result.stdout.length).toBe(0);
      expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(CUSTOMERS);
    }, 120_000);
  });

  describe('errors and exit codes', () => {
    it('exits 3 with a token message for a bad, an untrusted or a missing token, and for a missing scope', async () => {
      const bad = await runCli(['list', 'customers'], { ...env, ERP_TOKEN: 'not-a-jwt' });
      expect(bad.code).toBe(ExitCode.Auth);
      expect(oneLine(bad.stderr)).toMatch(/^erp: not authenticated \(401\): the token is missing, expired or not trusted/);
      const foreign = await runCli(['get', 'customers', customers[0].number, '--token', await TestAuth.foreignToken([COMPANY])], env);
      expect(foreign.code).toBe(ExitCode.Auth);
      const missing = await runCli(['list', 'customers'], { ERP_BASE_URL: baseUrl });
      expect(missing.code).toBe(ExitCode.Auth);
      expect(oneLine(missing.stderr)).toMatch(/no token: pass --token or set ERP_TOKEN/);
      const noReadScope = await auth.token({ companies: [COMPANY], scope: 'webhooks:manage' });
      const forbidden = await runCli(['list', 'customers'], { ...env, ERP_TOKEN: noReadScope });
      expect(forbidden.code).toBe(ExitCode.Auth);
      expect(oneLine(forbidden.stderr)).toMatch(/^erp: forbidden \(403\): the token lacks the scope or company/);
    }, 120_000);

    it("exits 4 with the API's message and request id for an unknown id or filter", async () => {
      const result = await runCli(['get', 'customers', '99999999'], env);
      expect(result.code).toBe(ExitCode.Client);
      expect(oneLine(result.stderr).trimEnd()).toMatch(/^erp: GET \/v1\/customer\/99999999 -> 404: .+ \(request id [0-9a-f-]{36}\)$/);
      const badFilter = await runCli(['list', 'customers', '--filter', 'colour=red'], env);
      expect(badFilter.code).toBe(ExitCode.Client);
      expect(oneLine(badFilter.stderr)).toMatch(/colour/);
    }, 120_000);

    it('exits 6 naming the URL when the API cannot be reached', async () => {
      const port = await closedPort();
      const result = await runCli(['list', 'customers'], { ...env, ERP_BASE_URL: `http://127.0.0.1:${port}` });
      expect(result.code).toBe(ExitCode.Unavailable);
      expect(oneLine(result.stderr).trimEnd()).toMatch(new RegExp(`^erp: could not reach http://127\\.0\\.0\\.1:${port}/v1/customer\\?pageSize=100&pageNumber=1: ECONNREFUSED$`));
    }, 120_000);

    it('exits 2 for usage errors, before calling the API', async () => {
      for (const args of [
        ['frobnicate'],
        ['list'],
        ['list', 'orders'],
        ['list', 'customers', '--page-size', '0'],
        ['list', 'customers', '--filter', 'status'],
        ['export', 'customers', '--format', 'xml'],
        ['get', 'sales-orders', '000001'],
        ['upload', 'customer', '10001', join(workDir, 'does-not-exist')],
        ['list', 'customers', '--base-url', 'localhost:3000'],
      ]) {
        const result = await runCli(args, env);
        expect({ args, code: result.code }).toEqual({ args, code: ExitCode.Usage });
        expect(result.stderr).not.toBe('');
      }
    }, 300_000);
  });
});
