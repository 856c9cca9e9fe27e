import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { ApiError } from '@erp/errors';
import { IDEMPOTENCY_KEY_HEADER, keyProblem, type RequestFacts } from './idempotency-key';
import { KeyedRequest, runKeyed } from './keyed-request';

/** What the JSON body reader (libs/bootstrap) keeps of a keyed request's body: its text. */
export const RAW_JSON_BODY = Symbol('erp.rawJsonBody');
/** Where the keyed request rides on the Fastify request, for the answer's onSend hook. */
export const KEYED_REQUEST = Symbol('erp.keyedRequest');

/** The methods a key makes safe to retry; PUT and DELETE are idempotent already (RFC 9110). */
const KEYED_METHODS = new Set(['POST', 'PATCH']);

interface AuthenticatedRequest {
  auth?: { subject?: string; companyId?: string };
  [RAW_JSON_BODY]?: string;
  [KEYED_REQUEST]?: KeyedRequest;
}

/**
 * `Idempotency-Key` on a POST or PATCH (draft-ietf-httpapi-idempotency-key-header-07). Global: it
 * runs after the guards (the company and caller are known) and around every handler:
 * - a key that is no key (over 255 characters, not visible ASCII): 400;
 * - the handler runs as the keyed request: its write transaction takes the key, answers a retry
 *   with the stored answer (the same request: method, path, body, If-Match) or a 422 (another),
 *   and stores the answer with the effect (keyed-request.ts, and IdempotencyModule's onSend).
 * Without the header, or on another method, nothing changes.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined || !KEYED_METHODS.has(request.method)) return next.handle();
    const problem = keyProblem(header);
    if (problem) throw new ApiError('InvalidHeader', problem);
    const { subject, companyId } = request.auth ?? {};
    // Routes without a company (none takes a write today) keep no keys: nothing to scope them to.
    if (!subject || !companyId) return next.handle();
    const streamed = isMultipart(request);
    const keyed = new KeyedRequest(
      { companyId, caller: subject, operation: `${request.method} ${request.routeOptions.url ?? request.url}`, key: header as string },
      factsOf(request),
      { streamed },
    );
    request[KEYED_REQUEST] = keyed;
    // No look at storage here: a first request, the common case, would pay a round trip for nothing
    // (bench:idempotency). A retry meets its stored answer in its write transaction, holding the
    // key, before any work; one that fails before writing (a 400) meets it in the answer's onSend.
    return runKeyed(keyed, () => next.handle());
  }
}

function isMultipart(request: FastifyRequest): boolean {
  return /^multipart\//i.test(String(request.headers['content-type'] ?? ''));
}

/**
 * The request as its fingerprint sees it. The content type only for a body sent whole: a
 * multipart boundary is new at every send of the same upload, whose body is the digest of the
 * file it streamed (KeyedRequest.streamedBody).
 */
function factsOf(request: FastifyRequest & AuthenticatedRequest): RequestFacts {
  const multipart = isMultipart(request);
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    method: request.method,
    url: request.url,
    headers: { 'if-match': header('if-match'), ...(multipart ? {} : { 'content-type': header('content-type') }) },
    body: multipart ? '' : (request[RAW_JSON_BODY] ?? ''),
  };
}
