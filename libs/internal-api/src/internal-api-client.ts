import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { INTERNAL_API_HEADER, type ServiceTokenSigner } from '@erp/auth';
import { InternalContractError, readInternalBody } from '@erp/contracts';
import { ServiceUnavailableError } from '@erp/errors';
import { internalCallSeconds, internalCalls } from './internal-api-metrics';
import { startInternalCallSpan } from './internal-call-tracing';

export interface InternalApiClientOptions {
  /** The called service's name (its tokens' audience), e.g. `customers-v1`. */
  target: string;
  /** Its base URLs: a Kubernetes Service's one URL, or each replica's (`npm start`, tests). */
  urls: readonly string[];
  signer: ServiceTokenSigner;
  /** Whole-call limit of one attempt. Default 2000 ms. */
  timeoutMs?: number;
  /** Receives one line when a call could not be answered (the caller's logger). */
  warn?: (message: string) => void;
}

/** What the owner answered a read with: the record, or that it has none for this company. */
export type InternalRead<T> = { found: true; body: T } | { found: false };

/** An answer that is not an answer (5xx, no connection, timeout): another replica may give one. */
class NoAnswer extends Error {}

const ATTEMPTS = 2;

/**
 * Calls another service's internal API (docs/cross-service-reads.md) as this service, for one
 * company: a fresh service token per call, `ipp-company-id`, keep-alive connections. A call that
 * gets no answer (refused, reset, timed out, 5xx: a replica that is starting or draining) is sent
 * once more, to the next replica where there are several, which is safe because every internal
 * operation is a read or an idempotent write. After that, or on a refusal of the credentials (a
 * configuration fault), it throws a 503 with Retry-After: the caller cannot know the answer, so it
 * must not guess one. Written on undici directly: no maintained client does these four things
 * (token per call, replica failover, one retry of unanswered calls, metrics) together.
 */
export class InternalApiClient {
  private readonly agent: Agent;
  private readonly urls: string[];
  private readonly timeoutMs: number;
  private next = 0;

  constructor(private readonly o: InternalApiClientOptions) {
    if (o.urls.length === 0) throw new Error(`no URL for ${o.target}'s internal API`);
    this.urls = o.urls.map((url) => url.replace(/\/$/, ''));
    this.timeoutMs = o.timeoutMs ?? 2_000;
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 32, connect: { timeout: this.timeoutMs } });
  }

  /**
   * GET a record: found (200, read as its contract class `contract`) or not (404). An answer that
   * breaks the contract (an incompatible version of the called service) is no answer: 503.
   */
  async read<T extends object>(companyId: string, path: string, contract: new () => T): Promise<InternalRead<T>> {
    const answer = await this.call('GET', companyId, path);
    if (answer.status === 404) return { found: false };
    try {
      return { found: true, body: readInternalBody(contract, answer.body, `${this.o.target} GET ${path}`) };
    } catch (error) {
      if (!(error instanceof InternalContractError)) throw error;
      internalCalls.inc({ target: this.o.target, outcome: 'off_contract' });
      this.o.warn?.(error.message);
      throw new ServiceUnavailableError(`${this.o.target} answered in a form this service does not read; try again`);
    }
  }

  /** POST a change the called service applies idempotently; resolves once it answered 2xx. */
  async send(companyId: string, path: string, body: unknown): Promise<void> {
    await this.call('POST', companyId, path, JSON.stringify(body));
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Nest calls it on shutdown (the client is a provider): keep-alive sockets must not hold the process. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  private async call(method: 'GET' | 'POST', companyId: string, path: string, body?: string): Promise<{ status: number; body?: unknown }> {
    const started = performance.now();
    let problem = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const baseUrl = this.urls[this.next++ % this.urls.length] as string;
      try {
        const answer = await this.attempt(method, baseUrl, companyId, path, body);
        internalCalls.inc({ target: this.o.target, outcome: answer.status === 404 ? 'not_found' : 'answered' });
        internalCallSeconds.observe({ target: this.o.target }, (performance.now() - started) / 1000);
        return answer;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
        if (!(error instanceof NoAnswer) && !isConnectionError(error)) break;
      }
    }
    internalCalls.inc({ target: this.o.target, outcome: 'unavailable' });
    this.o.warn?.(`internal call ${method} ${this.o.target}${path} for company ${companyId} got no answer: ${problem}`);
    throw new ServiceUnavailableError(`${this.o.target} could not be asked; try again`);
  }

  private async attempt(method: string, baseUrl: string, companyId: string, path: string, body?: string): Promise<{ status: number; body?: unknown }> {
    const token = await this.o.signer.sign(this.o.target, companyId);
    const span = startInternalCallSpan(method, baseUrl, this.o.target);
    try {
      const response = await request(`${baseUrl}${path}`, {
        method,
        dispatcher: this.agent,
        headers: {
          authorization: `Bearer ${token}`,
          'ipp-company-id': companyId,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...span?.headers,
        },
        body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      span?.end(response.statusCode);
      if (response.statusCode === 404) {
        await response.body.dump();
        // Only the route's own 404 says "no such record"; without its header the called replica
        // does not serve the route (an older release during a rollout): no answer, try another.
        if (response.headers[INTERNAL_API_HEADER] === undefined) throw new NoAnswer('404 from a replica that does not serve this internal route');
        return { status: 404 };
      }
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return { status: response.statusCode, body: response.statusCode === 204 ? undefined : await response.body.json() };
      }
      const text = (await response.body.text()).slice(0, 300);
      if (response.statusCode >= 500) throw new NoAnswer(`${response.statusCode} ${text}`);
      // 400/401/403: this service's call or its credentials are wrong (INTERNAL_API_SECRET differs?).
      throw new Error(`${response.statusCode} ${text}`);
    } catch (error) {
      span?.end(undefined, error);
      throw error;
    }
  }
}

/** Failures where the request may not have been processed (or was a read): worth a second try. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const name = (error as { name?: unknown }).name;
  return (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    (typeof code === 'string' && (code.startsWith('UND_ERR_') || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN'].includes(code)))
  );
}
