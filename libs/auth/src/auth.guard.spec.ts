import { Controller, type ExecutionContext, Get, Post } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DEV_AUDIENCE, DEV_ISSUER, SCOPES } from './auth-settings';
import type { AuthContext } from './authenticate-request';
import { ApplicationTypeNotRequired, AuthGuard, Public, RequiredScope } from './auth.guard';
import { generateDevKeyPair, signDevToken } from './dev-tokens';
import { TokenVerifier } from './token-verifier';

@Controller()
class ExampleController {
  @Get()
  read(): string {
    return 'read';
  }

  @Post()
  write(): string {
    return 'write';
  }

  @Public()
  @Get('health')
  health(): string {
    return 'health';
  }

  @ApplicationTypeNotRequired()
  @Get('v3')
  v3(): string {
    return 'v3';
  }

  @RequiredScope(SCOPES.manageWebhooks)
  @Get('subscriptions')
  subscriptions(): string {
    return 'subscriptions';
  }
}

interface FakeRequest {
  method: string;
  headers: Record<string, string>;
  auth?: AuthContext;
  log: { child: jest.Mock };
}

function contextFor(handler: keyof ExampleController, request: FakeRequest): ExecutionContext {
  return {
    getHandler: () => ExampleController.prototype[handler],
    getClass: () => ExampleController,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

describe('AuthGuard', () => {
  const keys = generateDevKeyPair();
  let guard: AuthGuard;

  beforeAll(async () => {
    const verifier = await TokenVerifier.create({
      issuer: DEV_ISSUER,
      audience: DEV_AUDIENCE,
      publicKeyPem: keys.publicKeyPem,
    });
    guard = new AuthGuard(new Reflector(), verifier, { requireApplicationType: false });
  });

  async function requestWith(scope: string, method = 'GET'): Promise<FakeRequest> {
    const token = await signDevToken(keys.privateKeyPem, { companies: ['1000001'], scope });
    return {
      method,
      headers: { authorization: `Bearer ${token}` },
      log: { child: jest.fn().mockReturnValue({}) },
    };
  }

  it('lets a @Public() route through without a token', async () => {
    const request: FakeRequest = { method: 'GET', headers: {}, log: { child: jest.fn() } };
    await expect(guard.canActivate(contextFor('health', request))).resolves.toBe(true);
    expect(request.auth).toBeUndefined();
  });

  it('refuses any other route without a token', async () => {
    const request: FakeRequest = { method: 'GET', headers: {}, log: { child: jest.fn() } };
    await expect(guard.canActivate(contextFor('read', request))).rejects.toMatchObject({ status: 401 });
  });

  it('attaches the auth context and a company-scoped logger to the request', async () => {
    const request = await requestWith(SCOPES.read);
    const child = request.log.child;
    await expect(guard.canActivate(contextFor('read', request))).resolves.toBe(true);
    expect(request.auth?.companyId).toBe('1000001');
    expect(child).toHaveBeenCalledWith({ companyId: '1000001', applicationType: undefined });
    expect(request.log).toBe(child.mock.results[0].value);
  });

  it('derives the scope from the method: a POST needs erp:write', async () => {
    const request = await requestWith(SCOPES.read, 'POST');
    await expect(guard.canActivate(contextFor('write', request))).rejects.toMatchObject({ status: 403 });
  });

  it('uses the @RequiredScope() of the route instead of the method scope', async () => {
    const readOnly = await requestWith(SCOPES.read);
    await expect(guard.canActivate(contextFor('subscriptions', readOnly))).rejects.toMatchObject({
      status: 403,
    });
    const manager = await requestWith(SCOPES.manageWebhooks);
    await expect(guard.canActivate(contextFor('subscriptions', manager))).resolves.toBe(true);
  });

  it('requires ipp-application-type where the service asks for it, except on @ApplicationTypeNotRequired() routes', async () => {
    const v1Guard = new AuthGuard(
      new Reflector(),
      await TokenVerifier.create({ issuer: DEV_ISSUER, audience: DEV_AUDIENCE, publicKeyPem: keys.publicKeyPem }),
      { requireApplicationType: true },
    );
    await expect(v1Guard.canActivate(contextFor('read', await requestWith(SCOPES.read)))).rejects.toMatchObject({ status: 400 });
    await expect(v1Guard.canActivate(contextFor('v3', await requestWith(SCOPES.read)))).resolves.toBe(true);
  });
});
