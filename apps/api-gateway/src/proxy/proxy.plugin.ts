import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { authenticateRequest, scopeForMethod, type TokenVerifier } from '@erp/auth';
import { ApiError, errorFamilyForPath, renderError, ServiceUnavailableError, toApiError } from '@erp/errors';
import { resolveRoute, type UpstreamUrls } from './routes';

export interface ProxyPluginOptions {
  upstreams: UpstreamUrls;
  verifier: TokenVerifier;
  upstreamTimeoutMs: number;
}

const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$|\?)/i;

function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const error = toApiError(err);
  const path = request.url.split('?')[0];
  if (error.status >= 500 && !(err instanceof ApiError)) request.log.error({ err }, 'gateway error');
  const rendered = renderError(error, errorFamilyForPath(path), path);
  return reply.status(rendered.status).headers(rendered.headers).header('x-request-id', request.id).send(rendered.body);
}

/**
 * The gateway's catch-all: find the owning service, check the token and the ipp-* headers with
 * the same rules the services apply, then stream the request to the service and its answer back
 * (bodies are never buffered here, so large attachments pass through in constant memory).
 * Registered in its own encapsulated context so its pass-through body handling does not leak
 * into the gateway's own routes (health, API document).
 */
export async function proxyPlugin(fastify: FastifyInstance, options: ProxyPluginOptions): Promise<void> {
  await fastify.register(replyFrom, {
    undici: { connections: 128, pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: options.upstreamTimeoutMs, bodyTimeout: options.upstreamTimeoutMs },
    disableRequestLogging: true,
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  fastify.setErrorHandler((err, request, reply) => sendError(request, reply, err));

  fastify.all('/*', async (request, reply) => {
    const path = request.url.split('?')[0];
    const route = DOT_SEGMENT.test(path) ? undefined : resolveRoute(request.url, options.upstreams);
    if (!route) throw new ApiError('RouteNotFound', 'No resource exists at this path');

    const auth = await authenticateRequest(request.headers, options.verifier, {
      requireApplicationType: route.rule.v1,
      requiredScope: route.rule.scope ?? scopeForMethod(request.method),
    });
    request.log = request.log.child({ companyId: auth.companyId, upstream: route.rule.upstream });

    return reply.from(`${route.baseUrl}${request.url}`, {
      rewriteRequestHeaders: (_req, headers) => ({ ...headers, 'x-request-id': String(request.id) }),
      onError: (errorReply, { error }) => {
        request.log.warn({ err: error, upstream: route.rule.upstream }, 'upstream unavailable');
        sendError(request, errorReply as FastifyReply, new ServiceUnavailableError('The service behind this path is unavailable; retry later', 2));
      },
    });
  });
}
