import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer, Reflector } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { requiredScopeOf } from '@erp/auth';
import { BEARER_SCHEME } from './schemas';

const HTTP_METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head'] as const;

type Handler = (...args: unknown[]) => unknown;
type ControllerClass = Type<unknown> & { prototype: Record<string, unknown> };

/** The operation id `buildOpenApiDocument` gives a handler: `<Controller without "Controller">_<method>`. */
export function operationIdOf(controllerName: string, methodName: string): string {
  return `${controllerName.replace(/Controller$/, '')}_${methodName}`;
}

/**
 * Writes into each bearer-secured operation the scope its route needs, `bearer: ['erp:read']`, as
 * the AuthGuard decides it (`requiredScopeOf` of @erp/auth: `@RequiredScope`, else the method's).
 * OpenAPI 3.1 lets a requirement of any scheme list roles; the gateway enforces the one listed, so
 * a service states its own rules and the gateway needs no list of them.
 */
export function stateOperationScopes(app: INestApplication, document: OpenAPIObject): void {
  const reflector = new Reflector();
  const handlers = new Map<string, { controller: ControllerClass; handler: Handler }>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as unknown as ControllerClass | null;
      if (!controller?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name];
        if (name !== 'constructor' && typeof handler === 'function') handlers.set(operationIdOf(controller.name, name), { controller, handler: handler as Handler });
      }
    }
  }
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      const found = operation?.operationId ? handlers.get(operation.operationId) : undefined;
      if (!operation?.security || !found) continue;
      const scope = requiredScopeOf(reflector, found.handler, found.controller, method.toUpperCase());
      operation.security = operation.security.map((requirement) => (BEARER_SCHEME in requirement ? { ...requirement, [BEARER_SCHEME]: [scope] } : requirement));
    }
  }
}
