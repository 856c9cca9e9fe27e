import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AuthSettings } from './auth-settings';
import { AUTH_OPTIONS, AuthGuard, type AuthGuardOptions } from './auth.guard';
import { TokenVerifier } from './token-verifier';

/** Installs the AuthGuard globally: every route needs a valid token unless marked @Public(). */
@Module({})
export class AuthModule {
  static forRoot(settings: AuthSettings, options: AuthGuardOptions): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      providers: [
        { provide: TokenVerifier, useFactory: () => TokenVerifier.create(settings) },
        { provide: AUTH_OPTIONS, useValue: options },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [TokenVerifier],
    };
  }
}
