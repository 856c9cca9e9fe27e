import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import type { OpenApiDoc } from '@erp/openapi';
import { breakingChanges, describeBreakingChanges, previousRelease, recordedContracts, type ReleaseContracts } from '@erp/release';
import { chromiumExecutablePath, HEADLESS_CHROMIUM_ARGS, TestAuth, PATIENCE_MS } from '@erp/testing';

const SCREENSHOT_DIR = join(__dirname, '../../../test-output');
const auth = new TestAuth();
let system: RunningSystem;
let testSystem: TestSystem | undefined;

type Operation = { summary?: string; parameters?: { name: string; in: string; required?: boolean }[]; responses: Record<string, { content?: Record<string, unknown> }> };

/** The API reference: each service's document, the gateway's merged one (linted), and the /docs page in a real browser. */
describe('API reference (OpenAPI and /docs)', () => {
  let merged: OpenApiDoc;

  beforeAll(async () => {
    testSystem = await startTestSystem('e2e_docs', { auth });
    system = testSystem.system;
  }, 120_000);

  afterAll(async () => {
    await testSystem?.stop();
  });

  it('serves each service its own OpenAPI 3.1 document without a token', async () => {
    const names = Object.keys(system.serviceUrls);
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      const response = await fetch(`${system.serviceUrls[name]}/openapi.json`);
      expect({ name, status: response.status }).toEqual({ name, status: 200 });
      const document = (await response.json()) as OpenApiDoc;
      expect(document.openapi).toBe('3.1.0');
      expect(Object.keys(document.paths ?? {}).length).toBeGreaterThan(0);
    }
  });

  it('merges every service into one document at the gateway /openapi.json, without a token', async () => {
    const response = await fetch(`${system.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    merged = (await response.json()) as OpenApiDoc;
    expect(merged.openapi).toBe('3.1.0');
    expect(merged['x-unavailable-services']).toBeUndefined();
    expect(Object.keys(merged.paths!)).toEqual(
      expect.arrayContaining([
        '/v1/customer',
        '/v1/customer/{customerNumber}',
        '/v1/supplierInvoice/{documentNumber}',
        '/v1/{endpoint}/{objectId}/Attachment',
        '/v1/attachment/{id}',
        '/api/v3/SalesOrders/{type}/{orderId}',
        '/api/webhooks/subscriptions',
      ]),
    );
    expect(Object.keys(merged.paths!).filter((path) => /^\/(health|metrics|openapi)/.test(path))).toEqual([]);
    // Shared components appear once (identical in every service), none renamed.
    expect(Object.keys(merged.components!.schemas!).filter((name) => /_/.test(name))).toEqual([]);
    expect(merged.components!.securitySchemes).toEqual({ bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });

    const patch = (merged.paths!['/api/v3/SalesOrders/{type}/{orderId}'] as Record<string, Operation>).patch;
    expect(patch.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'If-Match', in: 'header', required: true })]));
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['202', '400', '401', '403', '404', '412', '428']));
    expect(Object.keys(patch.responses['412'].content!)).toEqual(['application/problem+json']);
    const download = (merged.paths!['/v1/attachment/{id}'] as Record<string, Operation>).get;
    expect(Object.keys(download.responses['200'].content!).sort()).toEqual(['application/json', 'application/octet-stream', 'text/plain']);
    const upload = (merged.paths!['/v1/{endpoint}/{objectId}/Attachment'] as Record<string, { requestBody: { content: Record<string, unknown> } }>).post;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    const list = (merged.paths!['/v1/customer'] as Record<string, Operation>).get;
    expect(list.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['pageNumber', 'pageSize', 'ipp-company-id', 'ipp-application-type']));
  });

  it('passes the OpenAPI linter (Redocly, recommended rules) without errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(merged), absoluteRef: 'openapi.json', config });
    // Kept for inspection (and `npx @redocly/cli lint test-output/openapi.json` by hand).
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    writeFileSync(join(SCREENSHOT_DIR, 'openapi.json'), JSON.stringify(merged, null, 2));
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((e) => `${e.ruleId}: ${e.message} at ${e.location[0]?.pointer}`)).toEqual([]);
  });

  it('renders the API reference at /docs: the sales order PATCH with its If-Match header', async () => {
    await inBrowser('/docs', 'api-reference-sales-order-patch.png', async (page) => {
      // Find the operation in Redoc's menu (open its group first) and go to its section.
      await page.locator('li[role=menuitem][data-item-id="tag/Sales-orders"]').click({ timeout: PATIENCE_MS });
      const menuItem = page.locator('li[role=menuitem][data-item-id="tag/Sales-orders/operation/SalesOrders_patch"]');
      await expect(menuItem.textContent()).resolves.toMatch(/patch\s*Change a sales order/i);
      await menuItem.click();
      const operation = page.locator('[id="tag/Sales-orders/operation/SalesOrders_patch"]');
      await operation.waitFor({ timeout: PATIENCE_MS });
      await expect(operation.getByRole('heading', { name: 'Change a sales order' }).count()).resolves.toBe(1);
      await operation.scrollIntoViewIfNeeded();
      await expect(operation.getByText('If-Match', { exact: true }).first().isVisible()).resolves.toBe(true);
      await expect(operation.getByText('/api/v3/SalesOrders/{type}/{orderId}').first().count()).resolves.toBeGreaterThan(0);
    });
  }, 2 * PATIENCE_MS);

  it('states in each operation the scope the gateway enforces (the webhooks API: webhooks:manage)', () => {
    const security = (path: string, method: string) => (merged.paths![path] as Record<string, { security?: unknown }>)[method]?.security;
    expect(security('/v1/customer', 'get')).toEqual([{ bearer: ['erp:read'] }]);
    expect(security('/api/v3/SalesOrders', 'post')).toEqual([{ bearer: ['erp:write'] }]);
    expect(security('/api/webhooks/subscriptions', 'get')).toEqual([{ bearer: ['webhooks:manage'] }]);
  });

  it(`has no breaking change against the last release's recorded HTTP document and webhook catalogue (${previousRelease().version})`, async () => {
    const released = recordedContracts(previousRelease().version);
    const catalogue = await fetch(`${system.baseUrl}/api/webhooks/publishers`, { headers: await auth.headers({ company: '1000001' }) });
    expect(catalogue.status).toBe(200);
    const current = { openapi: merged, webhooks: await catalogue.json() } as Partial<ReleaseContracts>;
    expect(describeBreakingChanges(breakingChanges({ openapi: released.openapi, webhooks: released.webhooks }, current))).toEqual([]);
  }, 120_000);

  it('serves the AsyncAPI document of the events at /asyncapi.json without a token: the committed one', async () => {
    const response = await fetch(`${system.baseUrl}/asyncapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(readFileSync(join(__dirname, '../../../libs/contracts/asyncapi.json'), 'utf8')));
  });

  it('renders the events reference at /docs/events: the sales order topic and its event types, nothing from outside', async () => {
    await inBrowser('/docs/events', 'events-reference.png', async (page) => {
      // The component renders once it has fetched and parsed /asyncapi.json: the first send operation is then on screen
      // (its collapsed sidebar holds hidden copies of the same names, hence the visible one).
      await page.getByText('customers-v1.send.customers').filter({ visible: true }).first().waitFor({ timeout: PATIENCE_MS });
      await expect(page.getByText('ERP business events').count()).resolves.toBeGreaterThan(0);
      await expect(page.getByText('erp.sales-orders.sales-order.v3').first().count()).resolves.toBeGreaterThan(0);
      await expect(page.getByText('SALESORDER_DELETED').first().count()).resolves.toBeGreaterThan(0);
      await expect(page.getByText('sales-orders-v3.customer-snapshot').first().count()).resolves.toBeGreaterThan(0);
    });
  }, 2 * PATIENCE_MS);
});

/**
 * Opens a page of the gateway in headless Chromium, runs `check` on it and keeps a screenshot in
 * test-output/; the page may make no request outside the gateway and throw no error.
 */
async function inBrowser(path: string, screenshot: string, check: (page: Page) => Promise<void>): Promise<void> {
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: await chromiumExecutablePath(), args: [...HEADLESS_CHROMIUM_ARGS] });
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(system.baseUrl) && !/^(data|blob):/.test(request.url())) external.push(request.url());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const response = await page.goto(`${system.baseUrl}${path}`);
    expect(response?.status()).toBe(200);
    await check(page);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, screenshot) });
    expect(external).toEqual([]);
    expect(pageErrors).toEqual([]);
  } finally {
    await browser?.close();
  }
}
