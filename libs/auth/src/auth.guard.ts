import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { type AuthContext, authenticateRequest, scopeForMethod } from './authenticate-request';
import { TokenVerifier } from './token-verifier';

export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');
const PUBLIC_ROUTE = 'erp:public-route';
const REQUIRED_SCOPE = 'erp:required-scope';
const NO_APPLICATION_TYPE = 'erp:no-application-type';

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

/** Overrides the method-derived scope, e.g. `webhooks:manage` for the subscriptions API. */
export const RequiredScope = (scope: string): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_SCOPE, scope);

type AuthenticatedRequest = FastifyRequest & { auth?: AuthContext };

@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
    @Inject(AUTH_OPTIONS) private readonly options: AuthGuardOptions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const requiredScope =
      this.reflector.getAllAndOverride<string>(REQUIRED_SCOPE, targets) ?? scopeForMethod(request.method);
    const auth = await authenticateRequest(request.headers, this.verifier, {
      requireApplicationType: this.options.requireApplicationType && !this.reflector.getAllAndOverride<boolean>(NO_APPLICATION_TYPE, targets),
      requiredScope,
    });
    request.auth = auth;
    // Every log line of this request from here on names the company (never the token).
    request.log = request.log.child({ companyId: auth.companyId, applicationType: auth.applicationType });
    return true;
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
