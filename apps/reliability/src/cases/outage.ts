import { randomUUID } from 'node:crypto';
import { FAULTS, problemTypeUri } from '@erp/errors';

/**
 * Pieces of the outage case (see outage.e2e-spec.ts): a steady load through the gateway that
 * records every answer, a readiness watcher, and the checks of a failed answer's shape.
 */

export type Operation = 'listCustomers' | 'createCustomer' | 'readOrder' | 'patchOrder' | 'listInvoices' | 'listSubscriptions' | 'readAttachment';

export interface Outcome {
  phase: string;
  op: Operation;
  status: number;
  ms: number;
  /** Set for failed answers (>= 400): why the answer is not a documented 503, if it is not. */
  problem?: string;
  retryAfter?: string;
  /** createCustomer: the number; patchOrder: `<orderId>@<version>`, the event the change must emit. */
  committed?: string;
  /** Served as when every dependency is up (a 2xx, or the operation's normal 404). */
  answered?: boolean;
  /** A request that got no HTTP answer at all (connection error or client timeout). */
  error?: string;
}

export interface LoadTarget {
  baseUrl: string;
  headers: Record<string, string>;
  /** One order per worker (PATCHes of one worker never race another's). */
  orders: Array<{ type: string; orderId: string }>;
  /** Client-side limit: a request not answered in this time counts as a hang. */
  requestTimeoutMs: number;
}

const PAUSE_BETWEEN_REQUESTS_MS = 25;
const OPERATIONS: Operation[] = ['listCustomers', 'readOrder', 'patchOrder', 'listInvoices', 'createCustomer', 'listSubscriptions', 'readAttachment'];

/**
 * One loop per order, each cycling through the operations (reads of every database-backed service,
 * v1 and /api families, and event-emitting writes: customer creates, sales order PATCHes) with a short pause, until `stop()`. `phase` is read at the start of each request, so the
 * outcomes can be told apart by outage.
 */
export function startLoad(target: LoadTarget, phase: () => string): { outcomes: Outcome[]; stop(): Promise<void> } {
  const outcomes: Outcome[] = [];
  let running = true;
  const worker = async (index: number) => {
    const order = target.orders[index];
    for (let i = 0; running; i++) {
      const op = OPERATIONS[(i + index) % OPERATIONS.length];
      outcomes.push(await request(target, op, order, `${index}-${i}`, phase()));
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_REQUESTS_MS));
    }
  };
  const done = Promise.all(target.orders.map((_order, index) => worker(index)));
  return {
    outcomes,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

async function request(
  target: LoadTarget,
  op: Operation,
  order: { type: string; orderId: string },
  tag: string,
  phase: string,
): Promise<Outcome> {
  const orderPath = `/api/v3/SalesOrders/${order.type}/${order.orderId}`;
  // `healthy`: the answer when every dependency is up, if not a 2xx.
  const requests: Record<Operation, { path: string; method: string; body?: unknown; headers?: Record<string, string>; healthy?: number }> = {
    listCustomers: { path: '/v1/customer?pageSize=5&pageNumber=1', method: 'GET' },
    createCustomer: { path: '/v1/customer', method: 'POST', body: { name: `Outage ${tag}`, currencyId: 'NOK' } },
    readOrder: { path: orderPath, method: 'GET' },
    patchOrder: { path: orderPath, method: 'PATCH', body: { description: `Outage ${tag}` }, headers: { 'if-match': '*' } },
    listInvoices: { path: '/v1/supplierInvoice?pageSize=5&pageNumber=1', method: 'GET' },
    listSubscriptions: { path: '/api/webhooks/subscriptions', method: 'GET' },
    // An attachment that does not exist: 404 after a database lookup.
    readAttachment: { path: `/v1/attachment/${randomUUID()}`, method: 'GET', healthy: 404 },
  };
  const init = requests[op];
  const started = performance.now();
  try {
    const response = await fetch(`${target.baseUrl}${init.path}`, {
      method: init.method,
      headers: { ...target.headers, ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(target.requestTimeoutMs),
    });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    const outcome: Outcome = { phase, op, status: response.status, ms };
    if (response.status === init.healthy) {
      outcome.answered = true;
    } else if (response.ok) {
      outcome.answered = true;
      const body = JSON.parse(text) as Record<string, unknown>;
      if (op === 'createCustomer') outcome.committed = String(body['number']);
      // The body's `version` is the ETag value in base64 (the v3 document's format: byte); events carry the value.
      if (op === 'patchOrder') outcome.committed = `${order.orderId}@${Buffer.from(String(body['version']), 'base64').toString('utf8')}`;
    } else {
      outcome.retryAfter = response.headers.get('retry-after') ?? undefined;
      outcome.problem = unavailableProblem(init.path, response, text);
    }
    return outcome;
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    return { phase, op, status: 0, ms, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/**
 * Why an error answer is not the documented 503 (undefined when it is): status 503, a positive
 * integer `Retry-After`, and the family's error shape with the ServiceUnavailable fault.
 */
export function unavailableProblem(path: string, response: Response, text: string): string | undefined {
  if (response.status !== 503) return `status ${response.status}: ${text.slice(0, 200)}`;
  const retryAfter = response.headers.get('retry-after');
  if (!retryAfter || !/^[1-9]\d*$/.test(retryAfter)) return `Retry-After ${retryAfter}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const fault = FAULTS.ServiceUnavailable;
  if (path.startsWith('/v1/')) {
    const ok =
      body['ExceptionFaultCode'] === fault.code &&
      body['ExceptionType'] === fault.exceptionType &&
      typeof body['ExceptionMessage'] === 'string' &&
      String(body['ExceptionMessageID']).startsWith(`${fault.code}_`);
    return ok ? undefined : `v1 body ${text.slice(0, 200)}`;
  }
  const ok =
    (response.headers.get('content-type') ?? '').startsWith('application/problem+json') &&
    body['type'] === problemTypeUri('ServiceUnavailable') &&
    body['status'] === 503;
  return ok ? undefined : `problem body ${text.slice(0, 200)}`;
}

export interface ReadinessSample {
  at: number;
  service: string;
  status: number;
  /** Each check's status from the body (`database`, `kafka`, ...). */
  checks: Record<string, string>;
}

/** Polls every service's `/health/ready` until `stop()`; a probe that does not answer counts as 0. */
export function watchReadiness(serviceUrls: Record<string, string>, intervalMs = 250): { samples: ReadinessSample[]; stop(): Promise<void> } {
  const samples: ReadinessSample[] = [];
  let running = true;
  const poll = async (service: string, url: string) => {
    while (running) {
      const at = Date.now();
      let status = 0;
      let checks: Record<string, string> = {};
      try {
        const response = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(5_000) });
        status = response.status;
        const body = (await response.json()) as { details?: Record<string, { status?: string }> };
        checks = Object.fromEntries(Object.entries(body.details ?? {}).map(([key, value]) => [key, String(value.status)]));
      } catch {
        // no answer in time: not ready
      }
      samples.push({ at, service, status, checks });
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  };
  const done = Promise.all(Object.entries(serviceUrls).map(([service, url]) => poll(service, url)));
  return {
    samples,
    stop: async () => {
      running = false;
      await done;
    },
  };
}
