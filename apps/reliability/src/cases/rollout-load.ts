import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';

/**
 * The steady load of the rollout case (rollout.e2e-spec.ts): workers reading and writing through
 * the gateway at every service (customers, supplier invoices, attachments with uploads and
 * downloads, sales orders and inventory, webhook subscriptions) while the services' replicas are
 * replaced one by one. Every answer is recorded; a rollout invisible to clients leaves no answer
 * but a 2xx with the right content: any other status, connection error or timeout is a failure.
 */

export interface Answer {
  what: string;
  method: string;
  path: string;
  status: number;
  ok: boolean;
  /** Why it failed: the body's start, the connection error, a content mismatch. */
  problem?: string;
  startedAt: number;
  ms: number;
}

export interface RolloutTarget {
  baseUrl: string;
  /** Company A's headers: token with every scope, company, application type. */
  headers: Record<string, string>;
  /** Customers the other services know (from events), to upload to and order for. */
  customerNumbers: string[];
  /** One order per order worker, each PATCHed by its worker alone. */
  orders: Array<{ type: string; orderId: string }>;
  inventoryId: string;
  requestTimeoutMs: number;
}

const PAUSE_MS = 20;
/** Every fourth upload is this large, sent in chunks, so some are streaming while a replica drains. */
const LARGE_UPLOAD_BYTES = 2 * 1024 * 1024;
const UPLOAD_CHUNK_BYTES = 256 * 1024;

export class RolloutLoad {
  readonly answers: Answer[] = [];
  private running = false;
  private done: Promise<unknown> = Promise.resolve();

  constructor(private readonly target: RolloutTarget) {}

  start(workersPerKind = 1): void {
    this.running = true;
    const workers: Array<Promise<void>> = [];
    for (let w = 0; w < workersPerKind; w++) {
      workers.push(this.customers(w), this.invoices(w), this.attachments(w), this.webhooks(w));
    }
    this.target.orders.forEach((order, w) => workers.push(this.orders(w, order)));
    this.done = Promise.all(workers);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  failures(): Answer[] {
    return this.answers.filter((answer) => !answer.ok);
  }

  private async customers(w: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const created = await this.json('create customer', 'POST', '/v1/customer', { name: `Rollout C${w}-${n}`, currencyId: 'NOK' });
      const number = created?.['number'];
      if (number !== undefined) {
        await this.json('get customer', 'GET', `/v1/customer/${String(number)}`);
        await this.json('update customer', 'PUT', `/v1/customer/${String(number)}`, { name: `Rollout C${w}-${n} renamed` });
      }
      await this.json('list customers (v3)', 'GET', '/api/v3/Customers?pageSize=5');
    }
  }

  private async invoices(w: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const created = await this.json('create supplier invoice', 'POST', '/v1/supplierInvoice', {
        supplier: { number: 'SUP-ROLL', name: 'Rollout Supplier' },
        description: `Rollout I${w}-${n}`,
        invoiceLines: [{ description: 'line', quantity: 2, unitPrice: 10.5 }],
      });
      const reference = created?.['referenceNumber'];
      if (reference !== undefined) await this.json('get supplier invoice', 'GET', `/v1/supplierInvoice/${String(reference)}`);
      await this.json('list supplier invoices', 'GET', '/v1/supplierInvoice?pageSize=5');
    }
  }

  /** Uploads to a customer (small files, every fourth one 2 MiB), then downloads it and compares. */
  private async attachments(w: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const owner = this.target.customerNumbers[n % this.target.customerNumbers.length];
      const bytes = randomBytes(n % 4 === 3 ? LARGE_UPLOAD_BYTES : 1 + Math.floor(Math.random() * 64 * 1024));
      const uploaded = await this.upload(`/v1/customer/${owner}/Attachment`, `rollout-${w}-${n}.bin`, bytes);
      const id = uploaded?.['id'];
      if (id === undefined) continue;
      await this.record('download attachment', 'GET', `/v1/attachment/${String(id)}`, { accept: 'application/octet-stream' }, undefined, (body) =>
        createHash('sha256').update(body).digest('hex') === createHash('sha256').update(bytes).digest('hex') ? undefined : 'downloaded bytes differ from the upload',
      );
    }
  }

  /** Reads its order for the ETag, PATCHes it with If-Match; creates an order and reads the catalogue too. */
  private async orders(w: number, order: { type: string; orderId: string }): Promise<void> {
    const path = `/api/v3/SalesOrders/${order.type}/${order.orderId}`;
    for (let n = 0; this.running; n++) {
      const read = await this.record('get sales order', 'GET', path);
      if (read?.etag) await this.json('patch sales order', 'PATCH', path, { description: `Rollout P${w}-${n}` }, { 'if-match': read.etag });
      if (n % 3 === 2) {
        await this.json('create sales order', 'POST', '/api/v3/SalesOrders', {
          type: 'SO',
          customer: { id: this.target.customerNumbers[n % this.target.customerNumbers.length] },
          description: `Rollout O${w}-${n}`,
          orderLines: [{ inventoryId: this.target.inventoryId, quantity: 1, unitPrice: '5.00' }],
        });
        await this.json('list inventory', 'GET', '/api/v3/Inventory?pageSize=5');
      }
    }
  }

  private async webhooks(w: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const created = await this.json('create subscription', 'POST', '/api/webhooks/subscriptions', {
        publisher: 'vendor.net.erp.salesorderservice-publisher',
        eventTypes: ['SALESORDER_CREATED'],
        url: `http://127.0.0.1:9/rollout-${w}-${n}`,
      });
      await this.json('list subscriptions', 'GET', '/api/webhooks/subscriptions');
      const id = created?.['id'];
      if (id !== undefined) await this.json('delete subscription', 'DELETE', `/api/webhooks/subscriptions/${String(id)}`);
    }
  }

  private async json(what: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown> | undefined> {
    const answer = await this.record(what, method, path, { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body === undefined ? undefined : JSON.stringify(body));
    return answer?.json;
  }

  private async upload(path: string, name: string, bytes: Buffer): Promise<Record<string, unknown> | undefined> {
    const boundary = `rollout${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const chunks: Buffer[] = [head];
    for (let at = 0; at < bytes.length; at += UPLOAD_CHUNK_BYTES) chunks.push(bytes.subarray(at, at + UPLOAD_CHUNK_BYTES));
    chunks.push(Buffer.from(`\r\n--${boundary}--\r\n`));
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = chunks.shift();
        if (!chunk) return controller.close();
        if (chunks.length > 0 && chunk !== head) await pause(10);
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    const answer = await this.record('upload attachment', 'POST', path, { 'content-type': `multipart/form-data; boundary=${boundary}` }, body);
    return answer?.json;
  }

  /** Sends one request and records its answer; `check` may find a 2xx whose content is wrong. */
  private async record(
    what: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string | ReadableStream<Uint8Array>,
    check?: (body: Buffer) => string | undefined,
  ): Promise<{ json?: Record<string, unknown>; etag?: string } | undefined> {
    const startedAt = Date.now();
    const answer: Answer = { what, method, path, status: 0, ok: false, startedAt, ms: 0 };
    let result: { json?: Record<string, unknown>; etag?: string } | undefined;
    try {
      const response = await fetch(`${this.target.baseUrl}${path}`, {
        method,
        headers: { ...this.target.headers, ...headers },
        body,
        signal: AbortSignal.timeout(this.target.requestTimeoutMs),
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
      const bytes = Buffer.from(await response.arrayBuffer());
      answer.status = response.status;
      answer.ok = response.ok;
      if (!response.ok) answer.problem = bytes.toString('utf8').slice(0, 300);
      else if (check) answer.problem = check(bytes);
      if (answer.problem && response.ok) answer.ok = false;
      const isJson = response.headers.get('content-type')?.includes('json') && bytes.length > 0;
      if (answer.ok) result = { json: isJson ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : undefined, etag: response.headers.get('etag') ?? undefined };
    } catch (error) {
      answer.problem = error instanceof Error ? `${error.name}: ${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : String(error);
    }
    answer.ms = Date.now() - startedAt;
    this.answers.push(answer);
    await pause(PAUSE_MS);
    return result;
  }
}
