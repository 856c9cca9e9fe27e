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

/** A token already verified: its claims and until when (epoch ms) they may be reused. */
interface VerifiedToken {
  claims: TokenClaims;
  reuseUntil: number;
}

/** How long a verified token is reused at most, so a key withdrawn from the JWKS stops working soon. */
export const VERIFIED_TOKEN_REUSE_MS = 60_000;
const MAX_CACHED_TOKENS = 10_000;

/**
 * Verifies bearer tokens with jose: signature against the JWKS (cached and refreshed by jose) or
 * the configured public key, plus exp, nbf, iss and aud. Any failure is a 401 that does not say
 * which check failed.
 *
 * A client sends the same token with every request until it expires, and the signature check
 * (ES256/RS256) was the largest single cost of a request in the gateway and in each service
 * (tools/bench profile). So a token that passed is remembered, by its exact text, for at most
 * VERIFIED_TOKEN_REUSE_MS and never past its `exp` (plus the clock tolerance); failures are never
 * remembered. At most MAX_CACHED_TOKENS are kept (the oldest go first).
 */
export class TokenVerifier {
  private readonly verified = new Map<string, VerifiedToken>();

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
    const now = Date.now();
    const known = this.verified.get(token);
    if (known && now < known.reuseUntil) return copyOf(known.claims);
    if (known) this.verified.delete(token);
    const { claims, payload } = await this.verifyWithKey(token);
    const toleranceMs = (this.settings.clockToleranceSeconds ?? 5) * 1000;
    // jose checked exp and nbf (required: exp); reuse only while both would still pass.
    if (payload.nbf === undefined || payload.nbf * 1000 <= now) {
      if (this.verified.size >= MAX_CACHED_TOKENS) this.verified.delete(this.verified.keys().next().value as string);
      const reuseUntil = Math.min(now + VERIFIED_TOKEN_REUSE_MS, (payload.exp ?? 0) * 1000 + toleranceMs);
      this.verified.set(token, { claims: copyOf(claims), reuseUntil });
    }
    return claims;
  }

  private async verifyWithKey(token: string): Promise<{ claims: TokenClaims; payload: JWTPayload }> {
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
    return { claims: readClaims(payload), payload };
  }
}

function copyOf(claims: TokenClaims): TokenClaims {
  return { subject: claims.subject, companies: [...claims.companies], scopes: [...claims.scopes] };
}

function readClaims(payload: JWTPayload): TokenClaims {
  const companiesClaim = payload.companies;
  const companies = Array.isArray(companiesClaim)
    ? companiesClaim.filter((c) => typeof c === 'string' || typeof c === 'number').map(String)
    : [];
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  return { subject: String(payload.sub), companies, scopes };
}
