import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AuthSettings } from './auth-settings';
import { AUTH_OPTIONS, AuthGuard, type AuthGuardOptions } from './auth.guard';
import { ServiceTokenVerifier } from './service-tokens';
import { TokenVerifier } from './token-verifier';

/** The internal API a service serves: its own name (the tokens' audience) and the shared secrets. */
export interface InternalApiAuthSettings {
  serviceName: string;
  secret: string;
  /** During a rotation: the secret being replaced, still accepted. */
  previousSecret?: string;
}

/**
 * Installs the AuthGuard globally: every route needs a valid user token unless marked @Public(),
 * and an @InternalRoute() needs a service token (only where `internalApi` is given).
 */
@Module({})
export class AuthModule {
  static forRoot(settings: AuthSettings, options: AuthGuardOptions & { internalApi?: InternalApiAuthSettings }): DynamicModule {
    const { internalApi, ...guardOptions } = options;
    return {
      module: AuthModule,
      global: true,
      providers: [
        { provide: TokenVerifier, useFactory: () => TokenVerifier.create(settings) },
        { provide: AUTH_OPTIONS, useValue: guardOptions },
        ...(internalApi
          ? [{ provide: ServiceTokenVerifier, useValue: new ServiceTokenVerifier(internalApi.serviceName, { current: internalApi.secret, previous: internalApi.previousSecret }) }]
          : []),
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [TokenVerifier],
    };
  }
}
