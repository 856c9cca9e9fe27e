import { createHash, randomBytes } from 'node:crypto';

/**
 * The load of the crash case (see crash.e2e-spec.ts): workers creating and updating records of
 * every service through the gateway while services are killed, and a ledger of every request with
 * what its answer proves about the database:
 * - `acked`: a 2xx; the change must be in the database exactly once, with the acknowledged value;
 * - `unknown`: no answer (connection dropped, timeout) or the gateway's 503 (the service died while
 *   or before handling it): it may or may not have been applied, but never partly or twice;
 * - `rejected`: a 4xx; it must not have been applied;
 * - `failed`: any other 5xx (a finding: the crash case allows no 500s).
 */

export type OpKind = 'createCustomer' | 'updateCustomer' | 'createInvoice' | 'upload' | 'createOrder' | 'patchOrder';
export type Outcome = 'acked' | 'unknown' | 'rejected' | 'failed';

export interface Op {
  kind: OpKind;
  /** The unique value the request writes (name, description, file name), to find it in the database. */
  value: string;
  /** The aggregate it changes: customer number, `SO/<orderId>`, `customer/<n>` for uploads. */
  target?: string;
  outcome: Outcome;
  status: number;
  error?: string;
  startedAt: number;
  ms: number;
  /** From a 2xx: the created id/number (or order `SO/<id>`), the upload's sha256 and attachment id. */
  created?: string;
  sha256?: string;
  /** Uploads: bytes sent and their sha256 (what any visible copy must hash to). */
  size?: number;
  sentSha256?: string;
}

export interface LoadTarget {
  baseUrl: string;
  /** v1 and v3 headers of company A (token, company, application type). */
  headers: Record<string, string>;
  /** Customers and invoices attachments-v1 knows, to upload to. */
  uploadTargets: string[];
  /** One order per order worker: `{ type, orderId, etag }` (a worker's PATCHes never race another's). */
  orders: Array<{ type: string; orderId: string; etag: string }>;
  customerNumbers: string[];
  requestTimeoutMs: number;
}

export interface LoadCounts {
  customerWorkers: number;
  invoiceWorkers: number;
  uploadWorkers: number;
  /** Size of every third upload; sent slowly (see LARGE_UPLOAD_CHUNK) so a kill can land mid-upload. */
  largeUploadBytes: number;
}

/** A large upload in flight: how far it got, for a kill that must land mid-upload. */
export interface UploadProgress {
  size: number;
  sent: number;
}

const PAUSE_MS = 30;
/** Large uploads go out in chunks of this size with a pause between, so each takes about a second or more. */
const LARGE_UPLOAD_CHUNK = 256 * 1024;
const LARGE_UPLOAD_PAUSE_MS = 50;

export class CrashLoad {
  readonly ops: Op[] = [];
  readonly uploadsInFlight = new Set<UploadProgress>();
  private running = true;
  private done?: Promise<unknown>;

  constructor(
    private readonly target: LoadTarget,
    private readonly counts: LoadCounts,
  ) {}

  start(): void {
    const workers: Array<Promise<void>> = [];
    for (let i = 0; i < this.counts.customerWorkers; i++) workers.push(this.customerWorker(i));
    for (let i = 0; i < this.counts.invoiceWorkers; i++) workers.push(this.invoiceWorker(i));
    for (let i = 0; i < this.counts.uploadWorkers; i++) workers.push(this.uploadWorker(i));
    this.target.orders.forEach((order, i) => workers.push(this.orderWorker(i, order)));
    this.done = Promise.all(workers);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  /** Creates a customer, then renames it twice (PUT without If-Match: each rename is one change). */
  private async customerWorker(w: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const created = await this.send('createCustomer', `Crash C${w}-${n}`, undefined, 'POST', '/v1/customer', {
        name: `Crash C${w}-${n}`,
        currencyId: 'NOK',
      });
      const number = created.created;
      for (let u = 1; number && u <= 2 && this.running; u++) {
        const value = `Crash C${w}-${n} u${u}`;
        await this.send('updateCustomer', value, number, 'PUT', `/v1/customer/${number}`, { name: value });
      }
    }
  }

  private async invoiceWorker(w: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const value = `Crash I${w}-${n}`;
      await this.send('createInvoice', value, undefined, 'POST', '/v1/supplierInvoice', {
        supplier: { number: 'SUP-CRASH', name: 'Crash Supplier' },
        description: value,
        invoiceLines: [{ description: `${value} line`, quantity: 2, unitPrice: 10.5 }],
      });
    }
  }

  /** Small files (1 B to 200 KiB) and, every third, a large one sent slowly. */
  private async uploadWorker(w: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      const owner = this.target.uploadTargets[(w + n) % this.target.uploadTargets.length];
      const large = n % 3 === 2;
      const bytes = randomBytes(large ? this.counts.largeUploadBytes : 1 + Math.floor(Math.random() * 200 * 1024));
      await this.upload(`crash-u${w}-${n}.bin`, owner, bytes, large);
    }
  }

  /** PATCHes its order with If-Match (refreshing the ETag after an unknown outcome) and creates orders. */
  private async orderWorker(w: number, order: { type: string; orderId: string; etag: string }): Promise<void> {
    let etag: string | undefined = order.etag;
    const subject = `${order.type}/${order.orderId}`;
    const path = `/api/v3/SalesOrders/${subject}`;
    for (let n = 0; this.running; n++) {
      if (n % 3 === 2) {
        const value = `Crash O${w}-${n}`;
        await this.send('createOrder', value, undefined, 'POST', '/api/v3/SalesOrders', {
          type: 'SO',
          customer: { id: this.target.customerNumbers[n % this.target.customerNumbers.length], order: value },
          description: value,
          orderLines: [{ inventoryId: 'ITEM-CRASH', quantity: 1, unitPrice: '5.00' }],
        });
        continue;
      }
      etag ??= await this.currentEtag(path);
      if (!etag) continue;
      const value = `Crash P${w}-${n}`;
      const op = await this.send('patchOrder', value, subject, 'PATCH', path, { description: value }, { 'if-match': etag });
      // Only a 2xx tells the new ETag; otherwise read it again before the next PATCH.
      etag = op.outcome === 'acked' ? op.created : undefined;
    }
  }

  private async currentEtag(path: string): Promise<string | undefined> {
    try {
      const response = await fetch(`${this.target.baseUrl}${path}`, {
        headers: this.target.headers,
        signal: AbortSignal.timeout(this.target.requestTimeoutMs),
      });
      await response.arrayBuffer();
      return response.ok ? (response.headers.get('etag') ?? undefined) : undefined;
    } catch {
      await pause(200);
      return undefined;
    }
  }

  private async send(
    kind: OpKind,
    value: string,
    target: string | undefined,
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<Op> {
    return this.record({ kind, value, target }, () =>
      fetch(`${this.target.baseUrl}${path}`, {
        method,
        headers: { ...this.target.headers, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.target.requestTimeoutMs),
      }),
    );
  }

  private async upload(name: string, owner: string, bytes: Buffer, slow: boolean): Promise<Op> {
    const sentSha256 = createHash('sha256').update(bytes).digest('hex');
    const boundary = `crash${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const progress: UploadProgress = { size: bytes.length, sent: 0 };
    const chunks = [head, ...split(bytes, slow ? LARGE_UPLOAD_CHUNK : bytes.length || 1), tail];
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = chunks.shift();
        if (!chunk) return controller.close();
        if (slow && chunk !== head) await pause(LARGE_UPLOAD_PAUSE_MS);
        progress.sent += chunk === head || chunk === tail ? 0 : chunk.length;
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    if (slow) this.uploadsInFlight.add(progress);
    try {
      return await this.record({ kind: 'upload', value: name, target: owner, size: bytes.length, sentSha256 }, () =>
        fetch(`${this.target.baseUrl}/v1/${owner}/Attachment`, {
          method: 'POST',
          headers: { ...this.target.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: stream,
          duplex: 'half',
          signal: AbortSignal.timeout(this.target.requestTimeoutMs),
        } as RequestInit),
      );
    } finally {
      this.uploadsInFlight.delete(progress);
    }
  }

  private async record(partial: Pick<Op, 'kind' | 'value' | 'target' | 'size' | 'sentSha256'>, request: () => Promise<Response>): Promise<Op> {
    const startedAt = Date.now();
    const op: Op = { ...partial, outcome: 'unknown', status: 0, startedAt, ms: 0 };
    try {
      const response = await request();
      const text = await response.text();
      op.status = response.status;
      if (response.ok) {
        op.outcome = 'acked';
        const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        if (op.kind === 'createCustomer') op.created = String(json['number']);
        if (op.kind === 'createInvoice') op.created = String(json['referenceNumber']);
        if (op.kind === 'createOrder') op.created = `${String(json['type'])}/${String(json['orderId'])}`;
        if (op.kind === 'patchOrder') op.created = response.headers.get('etag') ?? undefined;
        if (op.kind === 'upload') {
          op.created = String(json['id']);
          op.sha256 = String(json['sha256']);
        }
      } else if (response.status === 503) {
        op.outcome = 'unknown';
        op.error = text.slice(0, 200);
      } else {
        op.outcome = response.status < 500 ? 'rejected' : 'failed';
        op.error = text.slice(0, 300);
      }
    } catch (error) {
      op.outcome = 'unknown';
      op.error = error instanceof Error ? `${error.name}: ${error.message}${causeOf(error)}` : String(error);
      // The service is down: do not spin on connection errors.
      await pause(100);
    }
    op.ms = Date.now() - startedAt;
    this.ops.push(op);
    await pause(PAUSE_MS);
    return op;
  }
}

function split(bytes: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return parts;
}

function causeOf(error: Error): string {
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? ` (${(cause as NodeJS.ErrnoException).code ?? cause.message})` : '';
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
