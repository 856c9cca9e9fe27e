import { applyDecorators, Header } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createRequire } from 'node:module';
import { JSON_TYPE } from '@erp/openapi';

/**
 * An HTML reference page of the gateway (`/docs`, `/docs/events`): its content type and a CSP that
 * keeps it to the gateway's own assets. `unsafeEval` for a bundle that compiles code at run time
 * (the AsyncAPI parser's ajv), `workers` for one that starts blob workers (Redoc's search).
 */
export function ReferencePage(options: { unsafeEval?: boolean; workers?: boolean } = {}): MethodDecorator {
  const script = `script-src 'self' 'unsafe-inline'${options.unsafeEval ? " 'unsafe-eval'" : ''};`;
  const workers = options.workers ? " worker-src 'self' blob:;" : '';
  return applyDecorators(
    Header('content-type', 'text/html; charset=utf-8'),
    Header('content-security-policy', `default-src 'self'; ${script} style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:;${workers} connect-src 'self'`),
  );
}

/**
 * The path of a file of an npm package, resolved by Node at run time. Not `require.resolve`: the
 * image's webpack build turns that into a module id, and the bundled gateway then served no
 * `/docs` at all (readFileSync of a number); found when the e2e suites began running the builds.
 */
const resolvePackage = createRequire(__filename).resolve;

export function packageFile(specifier: string): string {
  return resolvePackage(specifier);
}

/** A page's script or stylesheet, from node_modules, cached a day by browsers. */
export function sendAsset(reply: FastifyReply, contentType: string, body: Buffer): void {
  void reply.type(contentType).header('cache-control', 'public, max-age=86400').send(body);
}

/** A document the pages read (`/openapi.json`, `/asyncapi.json`): JSON, never cached stale. */
export function JsonDocument(): MethodDecorator {
  return applyDecorators(Header('content-type', JSON_TYPE), Header('cache-control', 'no-cache'));
}
