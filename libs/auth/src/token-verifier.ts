import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { UnauthorizedError } from '@erp/errors';
import { type AuthSettings, DEFAULT_ALGORITHMS } from './auth-settings';

/** What the API reads from a verified token. */
export interface TokenClaims {
  subject: string;
  companies: string[];
  scopes: string[];
}

type KeySource = KeyObject | JWTVerifyGetKey;

/**
 * Verifies bearer tokens with jose: signature against the JWKS (cached and refreshed by jose) or
 * the configured public key, plus exp, nbf, iss and aud. Any failure is a 401 that does not say
 * which check failed.
 */
export class TokenVerifier {
  private constructor(
    private readonly settings: AuthSettings,
    private readonly key: KeySource,
  ) {}

  static async create(settings: AuthSettings): Promise<TokenVerifier> {
    if (settings.jwksUrl) {
      return new TokenVerifier(settings, createRemoteJWKSet(new URL(settings.jwksUrl)));
    }
    if (!settings.publicKeyPem) {
      throw new Error('Auth settings need either a JWKS URL or a public key');
    }
    // The key type (EC, RSA, Ed25519) comes from the PEM; the algorithm allow-list still applies.
    return new TokenVerifier(settings, createPublicKey(settings.publicKeyPem));
  }

  async verify(token: string): Promise<TokenClaims> {
    let payload: JWTPayload;
    try {
      const options = {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: this.settings.algorithms ?? DEFAULT_ALGORITHMS,
        clockTolerance: this.settings.clockToleranceSeconds ?? 5,
        requiredClaims: ['exp', 'sub'],
      };
      const result =
        typeof this.key === 'function'
          ? await jwtVerify(token, this.key, options)
          : await jwtVerify(token, this.key, options);
      payload = result.payload;
    } catch {
      throw new UnauthorizedError('The bearer token is invalid or expired');
    }
    return readClaims(payload);
  }
}

function readClaims(payload: JWTPayload): TokenClaims {
  const companiesClaim = payload.companies;
  const companies = Array.isArray(companiesClaim)
    ? companiesClaim.filter((c) => typeof c === 'string' || typeof c === 'number').map(String)
    : [];
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  return { subject: String(payload.sub), companies, scopes };
}
