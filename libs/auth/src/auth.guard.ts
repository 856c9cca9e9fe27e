import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  Optional,
  SetMetadata,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AuthContext, authenticateRequest, scopeForMethod } from './authenticate-request';
import { authenticateServiceCall, INTERNAL_API_HEADER, ServiceTokenVerifier } from './service-tokens';
import { TokenVerifier } from './token-verifier';
import { bindRequestLog } from './request-log-bindings';

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');
const PUBLIC_ROUTE = 'erp:public-route';
const REQUIRED_SCOPE = 'erp:required-scope';
const NO_APPLICATION_TYPE = 'erp:no-application-type';
const INTERNAL_ROUTE = 'erp:internal-route';

export interface AuthGuardOptions {
  requireApplicationType: boolean;
}

/** Marks a route that needs no token (health, metrics, the API document). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/**
 * Marks a v3 route of a service whose other routes are v1 (`/api/v3/Customers` in customers-v1):
 * `ipp-application-type` is a /v1 rule, so it is not required there.
 */
export const ApplicationTypeNotRequired = (): MethodDecorator & ClassDecorator => SetMetadata(NO_APPLICATION_TYPE, true);

/**
 * Marks a route of the internal API that other services call (docs/cross-service-reads.md): it
 * takes a service token for one company instead of a user's token, and user tokens are refused.
 * The gateway routes no `/internal` path, so only other services reach it.
 */
export const InternalRoute = (): MethodDecorator & ClassDecorator => SetMetadata(INTERNAL_ROUTE, true);

/** Overrides the method-derived scope, e.g. `webhooks:manage` for the subscriptions API. */
export const RequiredScope = (scope: string): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_SCOPE, scope);

/** A handler or a controller class, as Nest's Reflector takes them. */
type RouteTarget = Parameters<Reflector['getAllAndOverride']>[1][number];

/**
 * The scope a route needs, as the AuthGuard decides it: its handler's or controller's
 * `@RequiredScope`, else the method's (`erp:read` for reads, `erp:write` for writes). The API
 * document states it per operation (`@erp/openapi`), and the gateway enforces what it states.
 */
export function requiredScopeOf(reflector: Reflector, handler: RouteTarget, controller: RouteTarget, method: string): string {
  return reflector.getAllAndOverride<string>(REQUIRED_SCOPE, [handler, controller]) ?? scopeForMethod(method);
}

type AuthenticatedRequest = FastifyRequest & { auth?: AuthContext };

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
    @Inject(AUTH_OPTIONS) private readonly options: AuthGuardOptions,
    // Present in services that serve an internal API (AuthModule.forRoot's `internalApi`).
    @Optional() private readonly serviceVerifier?: ServiceTokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const auth = this.reflector.getAllAndOverride<boolean>(INTERNAL_ROUTE, targets)
      ? await this.authenticateService(request, context.switchToHttp().getResponse<FastifyReply>())
      : await authenticateRequest(request.headers, this.verifier, {
          requireApplicationType: this.options.requireApplicationType && !this.reflector.getAllAndOverride<boolean>(NO_APPLICATION_TYPE, targets),
          requiredScope: requiredScopeOf(this.reflector, context.getHandler(), context.getClass(), request.method),
        });
    request.auth = auth;
    // Every log line of this request from here on names the company (never the token).
    bindRequestLog(request, { companyId: auth.companyId, applicationType: auth.applicationType });
    return true;
  }

  private authenticateService(request: AuthenticatedRequest, reply: FastifyReply): Promise<AuthContext> {
    if (!this.serviceVerifier) throw new Error('An @InternalRoute() needs AuthModule.forRoot(..., { internalApi }) (INTERNAL_API_SECRET)');
    // On every answer of the route, errors included: the caller tells this 404 from an unknown route's.
    reply.header(INTERNAL_API_HEADER, '1');
    return authenticateServiceCall(request.headers, this.serviceVerifier);
  }
}

function authOf(context: ExecutionContext): AuthContext {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('No auth context: the route is public or the AuthGuard is not installed');
  return auth;
}

/** The company the request addresses, as checked by the AuthGuard. */
export const CompanyId = createParamDecorator((_data: unknown, context: ExecutionContext) => authOf(context).companyId);

/** The whole auth context (subject, company, scopes, application type). */
export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext) => authOf(context));
