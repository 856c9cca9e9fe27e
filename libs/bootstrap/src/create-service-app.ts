import { type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import type { Logger } from 'pino';
import { ApiExceptionFilter, createValidationPipe, type ErrorFamily } from '@erp/errors';
import { instrumentHttpMetrics, PinoNestLogger, requestIdFor } from '@erp/observability';

export interface ServiceAppOptions {
  logger: Logger;
  /** Which error shape this service answers in. */
  errorFamily: ErrorFamily | 'by-path';
  bodyLimitBytes?: number;
  /** Fastify's per-request log lines (default true); LOG_REQUESTS=off turns them off. */
  requestLogging?: boolean;
}

/**
 * Builds a Nest application on Fastify with the habits every service shares: pino request
 * logging keyed by `x-request-id`, Prometheus metrics (`GET /metrics`, request latency by route),
 * the family's error filter and the strict validation pipe. Signals are handled by `runService`
 * (drain, then lifecycle hooks, then exit 0); tests close the app themselves.
 */
export async function createServiceApp(
  module: Type<unknown> | DynamicModule,
  options: ServiceAppOptions,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    loggerInstance: options.logger,
    genReqId: requestIdFor,
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: options.requestLogging === false,
    }),
    // Keep-alive connections that are idle are closed at shutdown; busy ones finish first.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  instrumentHttpMetrics(fastify);
  // Once closing, a response that finishes a request still in flight closes its keep-alive
  // connection; otherwise the server would wait for the client's idle timeout before closing.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  // JSON only: Fastify's own JSON parser (with prototype-poisoning protection) stays; the plain
  // text parser goes, so a text body is a 415 rather than a string reaching a DTO.
  fastify.removeContentTypeParser('text/plain');
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    // Nest's extra parsers (urlencoded) are not wanted: the API speaks JSON and multipart only.
    bodyParser: false,
  });
  app.useGlobalFilters(new ApiExceptionFilter(options.errorFamily));
  app.useGlobalPipes(createValidationPipe());
  return app;
}

/** Listens and returns the base URL (port 0 picks a free port, as the tests do). */
export async function listen(app: INestApplication, port: number, host: string): Promise<string> {
  await app.listen(port, host);
  const address = app.getHttpServer().address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actualPort}`;
}
