import { CommanderError, InvalidArgumentError } from 'commander';
import { CliError } from './cli-error';
import { apiConfig, collectCompanies, parseBaseUrl } from './config';
import { describeFailure, networkReason } from './errors';
import { ExitCode, exitCodeForStatus } from './exit-codes';
import { collectFilter, positiveInteger } from './options';
import { formatBytes, formatRate } from './progress';
import { attachmentOwner, resourceSpec } from './resources';

class FakeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly requestId?: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

describe('exit codes', () => {
  it('maps statuses onto the documented codes', () => {
    expect([401, 403].map(exitCodeForStatus)).toEqual([ExitCode.Auth, ExitCode.Auth]);
    expect([400, 404, 406, 413, 415, 428].map(exitCodeForStatus)).toEqual(Array(6).fill(ExitCode.Client));
    expect([409, 412].map(exitCodeForStatus)).toEqual([ExitCode.Conflict, ExitCode.Conflict]);
    expect([429, 500, 502, 503].map(exitCodeForStatus)).toEqual(Array(4).fill(ExitCode.Unavailable));
    expect(Object.values(ExitCode)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('failure messages', () => {
  const base = 'http://127.0.0.1:3000';

  it('says what is wrong with the token on 401 and 403', () => {
    const unauthorized = describeFailure(new FakeApiError(401, 'Unauthorized', 'req-1'), base);
    expect(unauthorized).toEqual({ exitCode: ExitCode.Auth, message: expect.stringMatching(/missing, expired.*request id req-1/) });
    const forbidden = describeFailure(new FakeApiError(403, 'scope erp:write required'), base);
    expect(forbidden.message).toMatch(/lacks the scope or company.*scope erp:write required/);
  });

  it("shows the API's message and request id for other 4xx, and Retry-After when given", () => {
    expect(describeFailure(new FakeApiError(404, 'GET /v1/customer/9 -> 404: Customer 9 not found', 'abc'), base)).toEqual({
      exitCode: ExitCode.Client,
      message: 'GET /v1/customer/9 -> 404: Customer 9 not found (request id abc)',
    });
    expect(describeFailure(new FakeApiError(503, 'unavailable', undefined, 5), base)).toEqual({
      exitCode: ExitCode.Unavailable,
      message: '503: unavailable; retry after 5 s',
    });
    expect(describeFailure(new FakeApiError(412, 'stale'), base).exitCode).toBe(ExitCode.Conflict);
  });

  it('names the Idempotency-Key of a write that failed for good, to send it again as the same write', () => {
    const unavailable = Object.assign(new FakeApiError(503, 'POST /v1/customer -> 503: unavailable'), { idempotencyKey: 'k-1' });
    expect(describeFailure(unavailable, base).message).toBe('POST /v1/customer -> 503: unavailable; to send it again as the same write: --idempotency-key k-1');
    const lost = Object.assign(new Error('POST /v1/customer: other side closed'), { name: 'ErpNetworkError', url: `${base}/v1/customer`, idempotencyKey: 'k 2' });
    expect(describeFailure(lost, base).message).toMatch(/; to send it again as the same write: --idempotency-key "k 2"$/);
    // A 4xx is the API's final word on that request: no key to retry with.
    expect(describeFailure(Object.assign(new FakeApiError(400, 'bad'), { idempotencyKey: 'k-3' }), base).message).not.toContain('idempotency');
  });

  it('names the unreachable URL and the system reason for network failures', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = Object.assign(new Error('fetch failed', { cause: new TypeError('fetch failed', { cause }) }), { name: 'ErpNetworkError' });
    expect(networkReason(error)).toBe('ECONNREFUSED');
    const timeout = Object.assign(new Error('GET /v1/customer: no answer within 30000 ms', { cause: new DOMException('aborted', 'AbortError') }), { name: 'ErpNetworkError' });
    expect(networkReason(timeout)).toBe('GET /v1/customer: no answer within 30000 ms');
    const blocked = Object.assign(new Error('GET /v1/customer: fetch failed', { cause: new TypeError('fetch failed', { cause: new Error('bad port') }) }), { name: 'ErpNetworkError' });
    expect(networkReason(blocked)).toBe('GET /v1/customer: fetch failed (bad port)');
    expect(describeFailure(error, 'http://127.0.0.1:9')).toEqual({ exitCode: ExitCode.Unavailable, message: 'could not reach http://127.0.0.1:9: ECONNREFUSED' });
  });

  it('turns commander errors into usage (help is success) and anything else into 1', () => {
    expect(describeFailure(new CommanderError(1, 'commander.unknownOption', 'x'), base).exitCode).toBe(ExitCode.Usage);
    expect(describeFailure(new CommanderError(0, 'commander.helpDisplayed', 'x'), base).exitCode).toBe(ExitCode.Ok);
    expect(describeFailure(new CliError(ExitCode.Usage, 'bad id'), base)).toEqual({ exitCode: 2, message: 'bad id' });
    expect(describeFailure(new Error('boom'), base).exitCode).toBe(ExitCode.Unexpected);
  });
});

describe('options and configuration', () => {
  it('parses repeatable filters and refuses malformed ones', () => {
    expect(collectFilter('b=2', collectFilter('status=Active'))).toEqual({ status: 'Active', b: '2' });
    expect(collectFilter('name=a=b')).toEqual({ name: 'a=b' });
    expect(() => collectFilter('status')).toThrow(InvalidArgumentError);
    expect(() => collectFilter('=x')).toThrow(InvalidArgumentError);
  });

  it('accepts only positive integers for sizes', () => {
    expect(positiveInteger('100')).toBe(100);
    for (const bad of ['0', '-1', '1.5', 'ten', '']) expect(() => positiveInteger(bad)).toThrow(InvalidArgumentError);
  });

  it('requires a token (auth), one company for API calls and an http(s) base URL (usage)', () => {
    expect(apiConfig({ baseUrl: 'http://h:1/', token: ' t ', company: ['42'] })).toEqual({ baseUrl: 'http://h:1', token: 't', companyId: '42' });
    expect(() => apiConfig({ baseUrl: 'http://h:1' })).toThrow(expect.objectContaining({ exitCode: ExitCode.Auth }));
    expect(() => apiConfig({ baseUrl: 'http://h:1', token: 't', company: ['1', '2'] })).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
    expect(apiConfig({ baseUrl: 'http://h:1', token: 't', idempotencyKey: 'order-42' })).toMatchObject({ idempotencyKey: 'order-42' });
    for (const idempotencyKey of ['k'.repeat(256), 'tab\there'])
      expect(() => apiConfig({ baseUrl: 'http://h:1', token: 't', idempotencyKey })).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
    expect(() => parseBaseUrl('localhost:3000')).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
    expect(() => parseBaseUrl('not a url')).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
    expect(collectCompanies('1, 2', ['0'])).toEqual(['0', '1', '2']);
  });
});

describe('resources', () => {
  it('maps names onto API paths and encodes ids', () => {
    expect(resourceSpec('customers').itemPath('10001')).toBe('/v1/customer/10001');
    expect(resourceSpec('supplier-invoices').itemPath('a/b')).toBe('/v1/supplierInvoice/a%2Fb');
    expect(resourceSpec('sales-orders').itemPath('so/000123')).toBe('/api/v3/SalesOrders/SO/000123');
    expect(resourceSpec('sales-orders').itemPath('QT-000002')).toBe('/api/v3/SalesOrders/QT/000002');
    expect(() => resourceSpec('sales-orders').itemPath('000123')).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
    expect(() => resourceSpec('orders')).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
    expect(attachmentOwner('supplier-invoice')).toBe('supplierInvoice');
    expect(() => attachmentOwner('order')).toThrow(CliError);
  });
});

describe('progress text', () => {
  it('formats bytes and rates', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MiB');
    expect(formatRate(2500, 2000, 'records')).toBe('1250 records/s');
    expect(formatRate(2048, 1000, 'bytes')).toBe('2.0 KiB/s');
    expect(formatRate(10, 0, 'records')).toBe('0 records/s');
  });
});
