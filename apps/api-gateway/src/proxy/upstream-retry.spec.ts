import { type FailedAttempt, retryReason } from './upstream-retry';

const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
const status = (statusCode: number, connection?: string | string[]): FailedAttempt['error'] =>
  Object.assign(new Error('Request failed'), { code: 'UND_ERR_REQ_RETRY', statusCode, headers: connection === undefined ? {} : { connection } });

describe('retryReason', () => {
  it('retries a connection that failed before the request was handed to it', () => {
    expect(retryReason({ error: refused, handedToConnection: false, attempt: 1 })).toBe('refused');
    expect(retryReason({ error: reset, handedToConnection: false, attempt: 1 })).toBe('not_connected');
    const connectTimeout = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    expect(retryReason({ error: connectTimeout, handedToConnection: false, attempt: 1 })).toBe('not_connected');
  });

  it('retries a POST or PATCH with an Idempotency-Key whose connection closed before any answer, once (the service applies it once)', () => {
    const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    for (const method of ['POST', 'PATCH']) {
      expect(retryReason({ error: closed, handedToConnection: true, attempt: 1, method, keyed: true })).toBe('read_lost');
      expect(retryReason({ error: reset, handedToConnection: true, attempt: 1, method, keyed: true })).toBe('read_lost');
      expect(retryReason({ error: closed, handedToConnection: true, attempt: 1, method, keyed: true, answered: true })).toBeUndefined();
      expect(retryReason({ error: closed, handedToConnection: true, attempt: 2, method, keyed: true })).toBeUndefined();
    }
    const timeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(retryReason({ error: timeout, handedToConnection: true, attempt: 1, method: 'POST', keyed: true })).toBeUndefined();
  });

  it('never retries a write without a key once the request was handed to a connection (it may have been read)', () => {
    const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', undefined]) {
      expect(retryReason({ error: reset, handedToConnection: true, attempt: 1, method })).toBeUndefined();
      expect(retryReason({ error: closed, handedToConnection: true, attempt: 1, method })).toBeUndefined();
    }
  });

  it('retries a GET or HEAD whose connection closed before any answer, once; never after the answer began, never a timeout', () => {
    const closed = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    for (const method of ['GET', 'HEAD']) {
      expect(retryReason({ error: reset, handedToConnection: true, attempt: 1, method })).toBe('read_lost');
      expect(retryReason({ error: closed, handedToConnection: true, attempt: 1, method })).toBe('read_lost');
      expect(retryReason({ error: closed, handedToConnection: true, attempt: 1, method, answered: true })).toBeUndefined();
      expect(retryReason({ error: closed, handedToConnection: true, attempt: 2, method })).toBeUndefined();
    }
    const timeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(retryReason({ error: timeout, handedToConnection: true, attempt: 1, method: 'GET' })).toBeUndefined();
  });

  it('never retries an error it does not know, even before hand-over (an aborted request, a bad option)', () => {
    const aborted = Object.assign(new Error('Request aborted'), { code: 'UND_ERR_ABORTED' });
    expect(retryReason({ error: aborted, handedToConnection: false, attempt: 1 })).toBeUndefined();
    expect(retryReason({ error: new Error('no code'), handedToConnection: false, attempt: 1 })).toBeUndefined();
  });

  it('retries a 503 that closes its connection, in any spelling of the header, and no other status', () => {
    expect(retryReason({ error: status(503, 'close'), handedToConnection: true, attempt: 1 })).toBe('draining');
    expect(retryReason({ error: status(503, 'Close'), handedToConnection: true, attempt: 1 })).toBe('draining');
    expect(retryReason({ error: status(503, ['keep-alive', 'close']), handedToConnection: true, attempt: 1 })).toBe('draining');
    expect(retryReason({ error: status(503, 'keep-alive'), handedToConnection: true, attempt: 1 })).toBeUndefined();
    expect(retryReason({ error: status(503), handedToConnection: true, attempt: 1 })).toBeUndefined();
    expect(retryReason({ error: status(502, 'close'), handedToConnection: true, attempt: 1 })).toBeUndefined();
    expect(retryReason({ error: status(500, 'close'), handedToConnection: true, attempt: 1 })).toBeUndefined();
  });

  it('retries once', () => {
    expect(retryReason({ error: refused, handedToConnection: false, attempt: 2 })).toBeUndefined();
    expect(retryReason({ error: status(503, 'close'), handedToConnection: true, attempt: 2 })).toBeUndefined();
  });
});
