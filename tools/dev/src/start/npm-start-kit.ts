import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { loadOrCreateDevKeyPair, signDevToken } from '@erp/auth';
import { REPO_ROOT } from '../paths';
import type { ListenedDelivery } from '../webhook-listener';
import { NpmStartProcess, npmStartPlace, type NpmStartPlace } from './npm-start-process';

/** What the npm start suites share: the demo company's API as a person calls it, and their places. */
export const COMPANY = '1000001';

/** Reads the API of a running `npm start` with a token signed by its own dev key, as `npm run token` does. */
export async function apiOf(place: NpmStartPlace, baseUrl: string) {
  const keys = loadOrCreateDevKeyPair(join(place.dataDir, 'dev-keys'));
  const token = await signDevToken(keys.privateKeyPem, {
    companies: [COMPANY],
    scope: 'erp:read erp:write webhooks:manage',
  });
  const headers = {
    authorization: `Bearer ${token}`,
    'ipp-company-id': COMPANY,
    'ipp-application-type': 'npm-start-test',
    accept: 'application/json',
  };
  const call = async (path: string, init: { method?: string; body?: unknown; accept?: string } = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...headers,
        ...(init.accept ? { accept: init.accept } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: response.status, text: await response.text() };
  };
  return { token, call };
}

/** Everything the demo company holds, by its totals and one record of each kind: what a restart must keep. */
export async function snapshot(place: NpmStartPlace, baseUrl: string) {
  const { call } = await apiOf(place, baseUrl);
  const total = async (path: string) => {
    const { status, text } = await call(path);
    if (status !== 200) throw new Error(`GET ${path}: ${status} ${text}`);
    const body = JSON.parse(text) as
      Array<{ metadata: { totalCount: number } }> | { totalCount?: number; value?: unknown[] };
    return Array.isArray(body)
      ? (body[0]?.metadata.totalCount ?? 0)
      : (body.totalCount ?? body.value?.length ?? 0);
  };
  const invoices = JSON.parse((await call('/v1/supplierInvoice?pageSize=1&pageNumber=1')).text) as Array<{
    referenceNumber: string;
    attachments: Array<{ id: string }>;
  }>;
  const attachmentId = invoices[0]?.attachments[0]?.id;
  return {
    customers: await total('/v1/customer?pageSize=1&pageNumber=1'),
    supplierInvoices: await total('/v1/supplierInvoice?pageSize=1&pageNumber=1'),
    salesOrders: await total('/api/v3/SalesOrders?pageSize=1'),
    inventoryItems: await total('/api/v3/Inventory?pageSize=1'),
    subscriptions: await total('/api/webhooks/subscriptions'),
    firstOrder: (await call('/api/v3/SalesOrders/SO/000001?expand=lines')).text,
    attachment: attachmentId ? (await call(`/v1/attachment/${attachmentId}`)).text : 'no attachment',
  };
}

/** `npm <args>` with ERP_DATA_DIR set, stdin closed (it must ask nothing): its exit code and its own lines. */
export function npmRun(args: string[], dataDir: string): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['--silent', ...args],
      { cwd: REPO_ROOT, env: { ...process.env, ERP_DATA_DIR: dataDir } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        if (error && code === null) reject(error);
        else resolve({ code, lines: `${stdout}${stderr}`.split('\n').filter((line) => line.trim() !== '') });
      },
    );
  });
}

export async function waitForDelivery(
  deliveries: ListenedDelivery[],
  type: string,
  subject: string,
): Promise<ListenedDelivery> {
  for (;;) {
    const found = deliveries.find(
      (d) => d.body.type === type && JSON.stringify(d.body.data).includes(subject),
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Issue 48: `npm start` as a durable workplace, run the way a person runs it (the real command, a
 * data directory of its own, Ctrl-C to its process group as a terminal sends it). Each test waits
 * for what it needs (a line, an answer); the suite's one bound is Jest's per test.
 */

/**
 * A suite's data directories and npm starts: made by `newPlace` and `start`, all stopped and
 * removed by `cleanUp` (its afterAll).
 */
export function npmStartSession() {
  const dirs: string[] = [];
  const running: NpmStartProcess[] = [];
  const newPlace = async () => {
    // Inside the checkout's .data, as a person's ERP_DATA_DIR would be, open to the server's OS user.
    await mkdir(join(REPO_ROOT, '.data'), { recursive: true });
    const dir = await mkdtemp(join(REPO_ROOT, '.data', 'test-npm-start-'));
    await chmod(dir, 0o755);
    dirs.push(dir);
    return npmStartPlace(dir);
  };
  const start = (place: NpmStartPlace, env?: Record<string, string>, root?: string) => {
    const proc = new NpmStartProcess(place, { env, ...(root ? { root } : {}) });
    running.push(proc);
    return proc;
  };

  const cleanUp = async () => {
    await Promise.all(running.map((proc) => proc.kill()));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  };
  return { newPlace, start, running, cleanUp };
}
