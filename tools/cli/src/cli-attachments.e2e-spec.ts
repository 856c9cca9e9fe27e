import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';
import { ExitCode } from './exit-codes';
import { runCli, runCliInTerminal } from './test-support/run-cli';
import { apiCaller, COMPANY, createCustomers, eventually, startCliSystem } from './test-support/system';

const auth = new TestAuth();
const api = apiCaller(() => testSystem.system.baseUrl, auth);
let testSystem: TestSystem;
let env: Record<string, string>;
let workDir: string;
let customers: Array<{ number: string; name: string }>;

/** Uploads once attachments-v1 knows the owner (it learns customers from their events: 404 until then). */
function uploadWhenKnown(run: typeof runCli, args: string[]) {
  return eventually(async () => {
    const result = await run(args, env);
    return result.code === ExitCode.Client ? undefined : result;
  }, 'the customer to reach attachments-v1');
}

describe('erp CLI: upload and download; supplier invoices', () => {
  beforeAll(async () => {
    testSystem = await startCliSystem('cli_att', ['customers-v1', 'supplier-invoices-v1', 'attachments-v1'], auth);
    env = { ERP_BASE_URL: testSystem.system.baseUrl, ERP_TOKEN: await auth.token({ companies: [COMPANY] }), ERP_COMPANY: COMPANY };
    workDir = mkdtempSync(join(tmpdir(), 'erp-cli-att-'));
    customers = await createCustomers(api, 3);
  }, 600_000);

  afterAll(async () => {
    await testSystem?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 120_000);

  it('uploads and downloads byte-exact, to a file and to stdout', async () => {
    const bytes = randomBytes(300_000);
    const file = join(workDir, 'scan.bin');
    writeFileSync(file, bytes);
    const uploaded = await uploadWhenKnown(runCli, ['upload', 'customer', customers[0].number, file, '--content-type', 'application/pdf']);
    expect(uploaded.stderr).toBe('');
    expect(uploaded.code).toBe(ExitCode.Ok);
    const created = JSON.parse(uploaded.stdout.toString()) as { id: string; name: string; size: number; sha256: string; contentType: string };
    expect(created).toMatchObject({ name: 'scan.bin', size: bytes.length, contentType: 'application/pdf', sha256: createHash('sha256').update(bytes).digest('hex') });

    const out = join(workDir, 'scan.copy');
    const toFile = await runCli(['download', created.id, '--out', out], env);
    expect(toFile.stderr).toBe('');
    expect(toFile.code).toBe(ExitCode.Ok);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    const toStdout = await runCli(['download', created.id], env);
    expect(toStdout.code).toBe(ExitCode.Ok);
    expect(toStdout.stdout.equals(bytes)).toBe(true);
  }, 240_000);

  it('sends an upload again as the same write with --idempotency-key: the first answer, one revision', async () => {
    const file = join(workDir, 'keyed.pdf');
    writeFileSync(file, randomBytes(50_000));
    const args = ['upload', 'customer', customers[1].number, file, '--content-type', 'application/pdf'];
    const key = `cli-${randomBytes(6).toString('hex')}`;
    const first = await uploadWhenKnown(runCli, ['--idempotency-key', key, ...args]);
    const again = await runCli(['--idempotency-key', key, ...args], env);
    expect([first.code, again.code, again.stderr]).toEqual([ExitCode.Ok, ExitCode.Ok, '']);
    expect(again.stdout.toString()).toBe(first.stdout.toString());
    // Another key is another write: the file's next revision.
    const other = await runCli(['--idempotency-key', `${key}-2`, ...args], env);
    expect((JSON.parse(other.stdout.toString()) as { revision: number }).revision).toBe((JSON.parse(first.stdout.toString()) as { revision: number }).revision + 1);
  }, 240_000);

  it('shows upload and download progress on a terminal', async () => {
    const bytes = randomBytes(200_000);
    const file = join(workDir, 'progress.bin');
    writeFileSync(file, bytes);
    const uploaded = await uploadWhenKnown(runCliInTerminal, ['upload', 'customer', customers[1].number, file]);
    expect(uploaded.code).toBe(ExitCode.Ok);
    const screen = uploaded.stdout.toString();
    expect(screen).toContain('Uploading progress.bin');
    expect(screen).toContain('195.3 KiB/195.3 KiB');
    expect(screen).toMatch(/KiB\/s|MiB\/s/);
    const id = /"id": "([^"]+)"/.exec(screen)![1];
    const out = join(workDir, 'progress.copy');
    const download = await runCliInTerminal(['download', id, '--out', out], env);
    expect(download.code).toBe(ExitCode.Ok);
    expect(download.stdout.toString()).toContain(`Downloading ${id}`);
    expect(download.stdout.toString()).toContain('195.3 KiB/195.3 KiB');
    expect(readFileSync(out).equals(bytes)).toBe(true);
  }, 240_000);

  it('refuses binary on a terminal (2), an unknown attachment (4) and a read-only token (3)', async () => {
    const toTerminal = await runCliInTerminal(['download', '00000000-0000-4000-8000-000000000000'], env);
    expect(toTerminal.code).toBe(ExitCode.Usage);
    expect(toTerminal.stdout.toString()).toContain('refusing to write an attachment to the terminal');
    const missing = join(workDir, 'missing.bin');
    const unknown = await runCli(['download', '00000000-0000-4000-8000-000000000000', '--out', missing], env);
    expect(unknown.code).toBe(ExitCode.Client);
    expect(unknown.stderr).toMatch(/^erp: GET \/v1\/attachment\/\S+ -> 404: .*\(request id \S+\)\n$/);
    expect(() => readFileSync(missing)).toThrow(/ENOENT/);
    const file = join(workDir, 'small.txt');
    writeFileSync(file, 'hello');
    const readOnly = await auth.token({ companies: [COMPANY], scope: 'erp:read' });
    const forbidden = await runCli(['upload', 'customer', customers[2].number, file], { ...env, ERP_TOKEN: readOnly });
    expect(forbidden.code).toBe(ExitCode.Auth);
    expect(forbidden.stderr).toMatch(/^erp: forbidden \(403\): the token lacks the scope or company.*\n$/);
  }, 240_000);

  it('lists supplier invoices (v1 paging, filter, table), gets one, and uploads to one', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await api('POST', '/v1/supplierInvoice', {
        supplier: { number: i < 3 ? 'S-CLI' : 'S-OTHER', name: 'CLI Supplies AS' },
        invoiceLines: [{ quantity: 1, unitPrice: `${10 + i}.00` }],
      });
      expect(response.status).toBe(201);
      created.push(((await response.json()) as { referenceNumber: string }).referenceNumber);
    }
    // pageSize 2: three pages for five invoices, each record exactly once.
    const listed = await runCli(['list', 'supplier-invoices', '--page-size', '2'], env);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(ExitCode.Ok);
    const invoices = JSON.parse(listed.stdout.toString()) as Array<{ referenceNumber: string; supplier: { number: string } }>;
    expect(invoices.map((x) => x.referenceNumber).sort()).toEqual([...created].sort());
    const filtered = await runCli(['list', 'supplier-invoices', '--filter', 'supplier=S-CLI', '-o', 'table'], env);
    expect(filtered.code).toBe(ExitCode.Ok);
    const lines = filtered.stdout.toString().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^referenceNumber\s+documentType\s+status\s+supplier\.number/);
    expect(lines.slice(2).map((line) => line.split(/\s+/)[0]).sort()).toEqual(created.slice(0, 3).sort());

    const got = await runCli(['get', 'supplier-invoices', created[4]], env);
    expect(got.code).toBe(ExitCode.Ok);
    expect(JSON.parse(got.stdout.toString())).toMatchObject({ referenceNumber: created[4], supplier: { number: 'S-OTHER' } });
    const missing = await runCli(['get', 'supplier-invoices', 'NO-SUCH-INVOICE'], env);
    expect(missing.code).toBe(ExitCode.Client);

    const file = join(workDir, 'invoice.pdf');
    writeFileSync(file, randomBytes(1000));
    const uploaded = await eventually(async () => {
      const result = await runCli(['upload', 'supplier-invoice', created[0], file], env);
      return result.code === ExitCode.Client ? undefined : result;
    }, 'the invoice to reach attachments-v1');
    expect(uploaded.code).toBe(ExitCode.Ok);
    expect(JSON.parse(uploaded.stdout.toString())).toMatchObject({ name: 'invoice.pdf', size: 1000 });
  }, 240_000);
});
