import type { TestAuth } from '@erp/testing';

export const COMPANY = '1000001';
const TIMEOUT_MS = 20_000;

/** A request that failed (an unexpected status or no answer) or an answer that was wrong. */
export interface Problem {
  stage: string;
  kind: 'failed request' | 'wrong answer';
  what: string;
}

/**
 * The test's client of the system under upgrade: every request goes to one of the gateways in
 * front at the moment (a load balancer's round robin), and every failure is recorded with the
 * stage it happened in. Nothing is retried: a client that must retry has seen a failure.
 */
export class UpgradeClient {
  readonly problems: Problem[] = [];
  gateways: string[] = [];
  stage = 'start';
  requests = 0;
  private next = 0;

  constructor(private readonly auth: TestAuth) {}

  async headers(json: boolean, v1: boolean): Promise<Record<string, string>> {
    const headers = await this.auth.headers({ company: COMPANY, applicationType: v1 ? 'upgrade-test' : null });
    return json ? { ...headers, 'content-type': 'application/json' } : headers;
  }

  /** One request through the next gateway; `expected` statuses pass, anything else is a failure (undefined). */
  async call(method: string, path: string, expected: number[], init: { body?: unknown; form?: FormData; headers?: Record<string, string> } = {}): Promise<Response | undefined> {
    const gateway = this.gateways[this.next++ % this.gateways.length];
    const v1 = path.startsWith('/v1/');
    const headers = { ...(await this.headers(init.body !== undefined, v1)), ...init.headers };
    const body = init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    this.requests++;
    try {
      const response = await fetch(`${gateway}${path}`, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (expected.includes(response.status)) return response;
      this.fail('failed request', `${method} ${path} via ${gateway}: ${response.status} ${(await response.text()).slice(0, 200)}`);
    } catch (error) {
      this.fail('failed request', `${method} ${path} via ${gateway}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return undefined;
  }

  fail(kind: Problem['kind'], what: string): void {
    this.problems.push({ stage: this.stage, kind, what });
  }
}
