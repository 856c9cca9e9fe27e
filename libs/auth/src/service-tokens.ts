import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ForbiddenError, InvalidHeaderError, UnauthorizedError } from '@erp/errors';
import { COMPANY_HEADER, type AuthContext, type HeaderBag } from './authenticate-request';

/**
 * The header every answer of an internal route carries. An older release of the called service,
 * which does not serve the route, answers 404 too, without it: the caller must not read that as
 * "no such record" (docs/migrations.md, mixed versions).
 */
export const INTERNAL_API_HEADER = 'erp-internal-api';

/** `iss` of every service token: never a user token's issuer, so neither can pass for the other. */
export const SERVICE_TOKEN_ISSUER = 'erp-internal';
/** A service token lives this long: each call signs a fresh one (HS256 costs microseconds). */
const SERVICE_TOKEN_LIFETIME_SECONDS = 60;
/** Shorter secrets are refused at start-up (RFC 7518 3.2: at least the hash size, 256 bits). */
export const MIN_SERVICE_SECRET_LENGTH = 32;
const ALGORITHM = 'HS256';

/** The secret of the internal API (INTERNAL_API_SECRET) as jose wants an HMAC key. */
function keyOf(secret: string): Uint8Array {
  if (secret.length < MIN_SERVICE_SECRET_LENGTH) throw new Error(`an internal API secret needs at least ${MIN_SERVICE_SECRET_LENGTH} characters`);
  return new TextEncoder().encode(secret);
}

/**
 * Signs the credentials one service sends with a call to another's internal API
 * (docs/cross-service-reads.md): a JWT, HS256 with the deployment's shared internal secret, whose
 * `sub` is the calling service, `aud` the called one and `company` the one company the call is
 * about. User tokens are asymmetric and never HS256 (`DEFAULT_ALGORITHMS`), so a user token cannot
 * open an internal route and a service token cannot open a public one.
 */
export class ServiceTokenSigner {
  private readonly key: Uint8Array;

  constructor(
    /** This service's name, e.g. `sales-orders-v3`. */
    readonly caller: string,
    secret: string,
  ) {
    this.key = keyOf(secret);
  }

  sign(audience: string, companyId: string): Promise<string> {
    return new SignJWT({ company: companyId })
      .setProtectedHeader({ alg: ALGORITHM })
      .setIssuer(SERVICE_TOKEN_ISSUER)
      .setSubject(this.caller)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${SERVICE_TOKEN_LIFETIME_SECONDS}s`)
      .sign(this.key);
  }
}

/**
 * Checks a service token on the called side: signature with the current secret or, during a
 * rotation, the previous one; `iss`, `aud` (this service), `exp`. Any failure is the same 401.
 */
export class ServiceTokenVerifier {
  private readonly keys: Uint8Array[];

  constructor(
    /** This service's name: the audience its internal routes accept. */
    readonly audience: string,
    secrets: { current: string; previous?: string },
  ) {
    this.keys = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])].map(keyOf);
  }

  /** The calling service and the company its token is for. */
  async verify(token: string): Promise<{ caller: string; companyId: string }> {
    for (const key of this.keys) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: SERVICE_TOKEN_ISSUER,
          audience: this.audience,
          requiredClaims: ['exp', 'sub'],
          clockTolerance: 5,
        });
        if (typeof payload.company !== 'string' || payload.company === '') break;
        return { caller: String(payload.sub), companyId: payload.company };
      } catch (error) {
        // Another key may still match; any other failure (expired, wrong audience) is final.
        if (!(error instanceof joseErrors.JWSSignatureVerificationFailed)) break;
      }
    }
    throw new UnauthorizedError('The service credentials are invalid or expired');
  }
}

/**
 * The rules of an internal route: a service token (401 without a valid one), and `ipp-company-id`
 * naming the company the token is for (400 when missing, 403 when another), so one call reads or
 * writes one company's records and the tenant wall holds it there.
 */
export async function authenticateServiceCall(headers: HeaderBag, verifier: ServiceTokenVerifier): Promise<AuthContext> {
  const authorization = headers.authorization;
  const match = typeof authorization === 'string' ? /^Bearer +(\S+)$/i.exec(authorization.trim()) : null;
  if (!match) throw new UnauthorizedError('Service credentials (Authorization: Bearer <service token>) are required');
  const { caller, companyId } = await verifier.verify(match[1]);
  const company = headers[COMPANY_HEADER];
  if (typeof company !== 'string') throw new InvalidHeaderError(COMPANY_HEADER, 'is required on internal calls, once');
  if (company !== companyId) throw new ForbiddenError('The service credentials are for another company');
  return { subject: `service:${caller}`, companyId, scopes: [] };
}
