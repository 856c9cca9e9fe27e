import type { LoggedErrors } from './logged-errors';

/** A response of a test's request, and for a 5xx what the service logged for it. */
export interface RecordedStatus {
  method: string;
  url: string;
  status: number;
  /** For a 5xx: the service's error lines for the request (its SQL error, say), when it logged any. */
  logged?: string[];
}

/**
 * fetch that remembers every response status, so a suite can assert at the end that no request
 * it made was answered with a 5xx. A 5xx names its cause at once: the error lines the service
 * logged for the request (matched by `x-request-id`) are printed beside the test that met it, and
 * kept in `serverErrors()`, so a failing `expect(status).toBe(201)` is never a bare "Received: 500".
 */
export class RecordingFetch {
  readonly statuses: RecordedStatus[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly loggedErrors?: LoggedErrors,
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const recorded: RecordedStatus = { method: init.method ?? 'GET', url: path, status: response.status };
    const logged = response.status >= 500 ? this.loggedErrors?.for(response.headers.get('x-request-id')) : undefined;
    // Only a 5xx the service logged an error for: a 503 a test provokes (draining, an outage) is expected.
    if (logged && logged.length > 0) {
      recorded.logged = logged;
      console.error(`${recorded.method} ${path} answered ${response.status}; the service logged: ${logged.join(' | ')}`);
    }
    this.statuses.push(recorded);
    return response;
  }

  serverErrors(): RecordedStatus[] {
    return this.statuses.filter((s) => s.status >= 500);
  }
}
