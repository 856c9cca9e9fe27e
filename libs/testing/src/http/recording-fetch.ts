/**
 * fetch that remembers every response status, so a suite can assert at the end that no request
 * it made was answered with a 5xx.
 */
export class RecordingFetch {
  readonly statuses: Array<{ method: string; url: string; status: number }> = [];

  constructor(private readonly baseUrl: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${this.baseUrl}${path}`, init);
    this.statuses.push({ method: init.method ?? 'GET', url: path, status: response.status });
    return response;
  }

  serverErrors(): Array<{ method: string; url: string; status: number }> {
    return this.statuses.filter((s) => s.status >= 500);
  }
}
