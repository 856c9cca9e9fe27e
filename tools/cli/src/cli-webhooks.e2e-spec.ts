import type { TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';
import { ExitCode } from './exit-codes';
import { finished, spawnCli } from './test-support/run-cli';
import { apiCaller, COMPANY, eventually, startCliSystem } from './test-support/system';

const auth = new TestAuth();
const api = apiCaller(() => testSystem.system.baseUrl, auth);
let testSystem: TestSystem;

describe('erp CLI: webhooks listen', () => {
  beforeAll(async () => {
    testSystem = await startCliSystem('cli_wh', ['customers-v1', 'webhook-publisher'], auth);
  }, 600_000);

  afterAll(async () => {
    await testSystem?.stop();
  }, 120_000);

  it('subscribes, prints a verified delivery, and deletes the subscription on SIGINT', async () => {
    // No --company: the token grants exactly one, which the listener then subscribes for.
    const token = await auth.token({ companies: [COMPANY], scope: 'webhooks:manage' });
    const child = spawnCli(['webhooks', 'listen', '--events', 'CUSTOMER_CREATED', '--secret'], { ERP_BASE_URL: testSystem.system.baseUrl, ERP_TOKEN: token });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const done = finished(child);
    await eventually(async () => (output.includes('Press Ctrl-C') ? true : undefined), 'the listener to start');
    expect(output).toMatch(/subscription \S+: \S+ CUSTOMER_CREATED {2}secret whsec_/);
    const response = await api('POST', '/v1/customer', { name: 'Webhook Watcher AS' });
    expect(response.status).toBe(201);
    const { number } = (await response.json()) as { number: string };
    await eventually(async () => (output.includes(`"number":"${number}"`) ? true : undefined), 'the delivery');
    expect(output).toMatch(new RegExp(`CUSTOMER_CREATED {2}company ${COMPANY} {2}webhook-id \\S+ {2}signature ok`));
    child.kill('SIGINT');
    const result = await done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(ExitCode.Ok);
    expect(output).toContain('subscriptions deleted');
    const left = await api('GET', '/api/webhooks/subscriptions');
    expect(((await left.json()) as { value: unknown[] }).value).toEqual([]);
  }, 240_000);
});
