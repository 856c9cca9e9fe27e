import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { ApiError, type ErrorFamily, errorFamilyForPath, renderError } from '@erp/errors';

/**
 * Answers requests that Node's HTTP parser refuses before Fastify sees them (URL + headers over
 * `maxHeaderSize`, headers or body too slow, malformed HTTP) in the API's documented error shape,
 * with an `x-request-id`, instead of Fastify's default `{ error, message, statusCode }`. There is
 * no request object at this point, so the family is read off the request line in the raw packet;
 * a timeout carries no packet, so where the family goes by path it is then problem+json.
 * The connection is closed afterwards: the parser's state is unusable.
 */
export function clientErrorHandler(errorFamily: ErrorFamily | 'by-path'): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // Node hands over the Buffer being parsed (Fastify's type for it says otherwise); a timeout has none.
    const raw: unknown = error.rawPacket;
    const path = requestPath(Buffer.isBuffer(raw) ? raw : undefined);
    const family = errorFamily === 'by-path' ? errorFamilyForPath(path) : errorFamily;
    const rendered = renderError(apiErrorFor(error.code), family, path);
    const body = JSON.stringify(rendered.body);
    const headers: Record<string, string> = {
      ...rendered.headers,
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': randomUUID(),
      connection: 'close',
    };
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    // end() closes the connection once the answer is written.
    socket.end(`HTTP/1.1 ${rendered.status} ${STATUS_TEXT[rendered.status] ?? 'Bad Request'}\r\n${head}\r\n${body}`);
  };
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

export function apiErrorFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError('HeadersTooLarge', 'The request URL and headers together are larger than 16 KiB');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError('RequestTimeout', 'The request headers or body did not arrive in time');
  }
  return new ApiError('ValidationFailed', 'The request is not valid HTTP');
}

/** The path of the request line (`GET /v1/customer?x HTTP/1.1`), as far as it arrived; `/` when unreadable. */
export function requestPath(rawPacket: Buffer | undefined): string {
  if (!rawPacket) return '/';
  const line = rawPacket.subarray(0, 512).toString('latin1');
  const match = /^[A-Z]+ (\/[^\s?]*)/.exec(line);
  return match ? match[1] : '/';
}
