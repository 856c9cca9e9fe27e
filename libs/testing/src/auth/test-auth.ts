import { SignJWT, UnsecuredJWT } from 'jose';
import { createPrivateKey, randomBytes } from 'node:crypto';
import {
  DEV_AUDIENCE,
  DEV_ISSUER,
  generateDevKeyPair,
  ServiceTokenSigner,
  signDevToken,
  type DevKeyPair,
  type DevTokenRequest,
} from '@erp/auth';

export interface TestHeadersRequest extends Partial<DevTokenRequest> {
  /** Sent as ipp-company-id; omit the header with `company: null`. */
  company?: string | null;
  /** Sent as ipp-application-type; omit the header with `applicationType: null`. */
  applicationType?: string | null;
}

export const FULL_SCOPE = 'erp:read erp:write webhooks:manage';

/**
 * A key pair made for one test run, and tokens signed with it. Services under test are started
 * with its public key, so tests mint any token they need: other companies, missing scopes,
 * expired, wrong audience, another key, `alg: none`.
 */
export class TestAuth {
  readonly keys: DevKeyPair = generateDevKeyPair();
  /** The internal API secret the services under test share (INTERNAL_API_SECRET). */
  readonly internalApiSecret = randomBytes(32).toString('base64url');

  get publicKeyPem(): string {
    return this.keys.publicKeyPem;
  }

  /** Environment for a service under test that should trust this key. */
  get serviceEnv(): Record<string, string> {
    return {
      AUTH_PUBLIC_KEY: this.keys.publicKeyPem,
      AUTH_ISSUER: DEV_ISSUER,
      AUTH_AUDIENCE: DEV_AUDIENCE,
      INTERNAL_API_SECRET: this.internalApiSecret,
    };
  }

  /** A service token, as `caller` signs one to call `audience`'s internal API for `company`. */
  serviceToken(caller: string, audience: string, company: string): Promise<string> {
    return new ServiceTokenSigner(caller, this.internalApiSecret).sign(audience, company);
  }

  /** Headers of an internal call (`/internal/v1/...`) from `caller` to `audience` for `company`. */
  async serviceHeaders(caller: string, audience: string, company: string): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.serviceToken(caller, audience, company)}`, 'ipp-company-id': company, accept: 'application/json' };
  }

  token(request: Partial<DevTokenRequest> = {}): Promise<string> {
    return signDevToken(this.keys.privateKeyPem, {
      companies: request.companies ?? ['1000001'],
      scope: request.scope ?? FULL_SCOPE,
      ...request,
    });
  }

  /** Standard v1 request headers for a company (by default the token grants only that company). */
  async headers(request: TestHeadersRequest = {}): Promise<Record<string, string>> {
    const company = request.company === undefined ? (request.companies?.[0] ?? '1000001') : request.company;
    const token = await this.token({
      ...request,
      companies: request.companies ?? (company ? [company] : ['1000001']),
    });
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (company !== null) headers['ipp-company-id'] = company;
    if (request.applicationType !== null)
      headers['ipp-application-type'] = request.applicationType ?? 'erp-tests';
    return headers;
  }

  /** A well-formed token signed by a key the services do not trust. */
  static async foreignToken(companies: string[] = ['1000001']): Promise<string> {
    const other = generateDevKeyPair();
    return signDevToken(other.privateKeyPem, { companies, scope: FULL_SCOPE });
  }

  /** A token with `alg: none` (no signature), which must always be refused. */
  static unsignedToken(companies: string[] = ['1000001']): string {
    return new UnsecuredJWT({ companies, scope: FULL_SCOPE })
      .setSubject('attacker')
      .setIssuer(DEV_ISSUER)
      .setAudience(DEV_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
  }

  /** An HS256 token keyed with the public key text: the classic algorithm-confusion attack. */
  async hmacConfusionToken(companies: string[] = ['1000001']): Promise<string> {
    return new SignJWT({ companies, scope: FULL_SCOPE })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('attacker')
      .setIssuer(DEV_ISSUER)
      .setAudience(DEV_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(this.keys.publicKeyPem));
  }

  /** Re-export for tests that need a raw private key object. */
  privateKey() {
    return createPrivateKey(this.keys.privateKeyPem);
  }
}
