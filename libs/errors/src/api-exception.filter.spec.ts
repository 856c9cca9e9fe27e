import type { ArgumentsHost } from '@nestjs/common';
import { NotFoundError } from './api-error';
import { AnswerReplay } from './answer-replay';
import { ApiExceptionFilter } from './api-exception.filter';

interface FakeReply {
  sent: boolean;
  statusCode?: number;
  headerValues: Record<string, string>;
  body?: unknown;
  status(code: number): FakeReply;
  headers(values: Record<string, string>): FakeReply;
  header(name: string, value: string): FakeReply;
  send(body: unknown): FakeReply;
}

function fakeReply(sent = false): FakeReply {
  const reply: FakeReply = {
    sent,
    headerValues: {},
    status(code) {
      reply.statusCode = code;
      return reply;
    },
    headers(values) {
      Object.assign(reply.headerValues, values);
      return reply;
    },
    header(name, value) {
      reply.headerValues[name] = value;
      return reply;
    },
    send(body) {
      reply.body = body;
      return reply;
    },
  };
  return reply;
}

function hostFor(url: string, reply: FakeReply): ArgumentsHost {
  const request = { url, id: 'req-42', log: { error: jest.fn(), info: jest.fn() } };
  return {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply, getNext: () => undefined }),
  } as unknown as ArgumentsHost;
}

describe('ApiExceptionFilter', () => {
  it('answers a /v1 path in the v1 shape, choosing by the path without its query', () => {
    const reply = fakeReply();
    new ApiExceptionFilter().catch(new NotFoundError('Customer 1'), hostFor('/v1/customer/1?x=/api', reply));
    expect(reply.statusCode).toBe(404);
    expect(reply.body).toHaveProperty('ExceptionFaultCode', '10201');
  });

  it('answers other paths in problem+json with the path as instance', () => {
    const reply = fakeReply();
    new ApiExceptionFilter().catch(
      new NotFoundError('Order'),
      hostFor('/api/v3/SalesOrders/SO/1?expand=lines', reply),
    );
    expect(reply.headerValues['content-type']).toMatch(/^application\/problem\+json/);
    expect(reply.body).toHaveProperty('instance', '/api/v3/SalesOrders/SO/1');
  });

  it('uses the fixed family when one is given', () => {
    const reply = fakeReply();
    new ApiExceptionFilter('v1').catch(new NotFoundError('x'), hostFor('/api/v3/SalesOrders', reply));
    expect(reply.body).toHaveProperty('ExceptionMessageID');
  });

  it('puts the request id on every error response', () => {
    const reply = fakeReply();
    new ApiExceptionFilter().catch(new Error('boom'), hostFor('/v1/customer', reply));
    expect(reply.statusCode).toBe(500);
    expect(reply.headerValues['x-request-id']).toBe('req-42');
  });

  it('sends nothing when the reply has already been sent', () => {
    const reply = fakeReply(true);
    new ApiExceptionFilter().catch(new NotFoundError('x'), hostFor('/v1/customer', reply));
    expect(reply.body).toBeUndefined();
  });

  it('sends a stored answer given again as it was stored: status, headers, bytes, in either family', () => {
    for (const url of ['/v1/customer', '/api/v3/SalesOrders']) {
      const reply = fakeReply();
      const body = Buffer.from('{"number":"10001"}');
      new ApiExceptionFilter().catch(new AnswerReplay(201, { etag: '"7"', location: '/v1/customer/10001', 'idempotent-replayed': 'true' }, body), hostFor(url, reply));
      expect([reply.statusCode, reply.body]).toEqual([201, body]);
      expect(reply.headerValues).toEqual({ etag: '"7"', location: '/v1/customer/10001', 'idempotent-replayed': 'true', 'x-request-id': 'req-42' });
    }
  });
});
