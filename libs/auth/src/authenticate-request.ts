import { ForbiddenError, InvalidHeaderError, UnauthorizedError } from '@erp/errors';
import { SCOPES } from './auth-settings';
import type { TokenVerifier } from './token-verifier';

/** Who is calling, for which company. Attached to the request after authentication. */
export interface AuthContext {
  subject: string;
  companyId: string;
  scopes: string[];
  applicationType?: string;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface AuthenticateOptions {
  /** The v1 family requires `ipp-application-type` on every request. */
  requireApplicationType: boolean;
  /** The scope this operation needs; defaults from the HTTP method (reads vs writes). */
  requiredScope: string;
}

export const COMPANY_HEADER = 'ipp-company-id';
export const APPLICATION_TYPE_HEADER = 'ipp-application-type';

const COMPANY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
// Printable ASCII only: the value is logged, so control characters and header tricks are refused.
const APPLICATION_TYPE_PATTERN = /^[\x20-\x7E]{1,100}$/;

export function scopeForMethod(method: string): string {
  return ['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()) ? SCOPES.read : SCOPES.write;
}

function singleHeader(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  if (Array.isArray(value)) {
    if (value.length > 1) throw new InvalidHeaderError(name, 'must be sent once');
    return value[0];
  }
  return value;
}

/**
 * The API's authentication and tenancy rules in one function, shared by the gateway and by every
 * service's guard (defence in depth). Order matters: an unauthenticated caller learns nothing
 * about headers; a malformed header is a 400 before any company check; a company the token does
 * not grant is a 403.
 */
export async function authenticateRequest(
  headers: HeaderBag,
  verifier: TokenVerifier,
  options: AuthenticateOptions,
): Promise<AuthContext> {
  const authorization = singleHeader(headers, 'authorization');
  // RFC 9110: the scheme is case-insensitive and separated by one or more spaces.
  const match = authorization
    ? /^Bearer +([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)$/i.exec(authorization.trim())
    : null;
  if (!match) throw new UnauthorizedError('An Authorization header with a Bearer token is required');
  const claims = await verifier.verify(match[1]);

  const requestedCompany = singleHeader(headers, COMPANY_HEADER);
  if (requestedCompany !== undefined && !COMPANY_ID_PATTERN.test(requestedCompany)) {
    throw new InvalidHeaderError(COMPANY_HEADER, 'must be a company id of 1 to 64 letters, digits, - or _');
  }

  let applicationType: string | undefined;
  if (options.requireApplicationType) {
    applicationType = singleHeader(headers, APPLICATION_TYPE_HEADER);
    if (applicationType === undefined) {
      throw new InvalidHeaderError(APPLICATION_TYPE_HEADER, 'is required on every /v1 request');
    }
    if (!APPLICATION_TYPE_PATTERN.test(applicationType) || applicationType.trim() === '') {
      throw new InvalidHeaderError(APPLICATION_TYPE_HEADER, 'must be 1 to 100 printable characters');
    }
  }

  let companyId: string;
  if (claims.companies.length === 0) {
    throw new ForbiddenError('The token grants access to no company');
  }
  if (requestedCompany === undefined) {
    if (claims.companies.length !== 1) {
      throw new InvalidHeaderError(COMPANY_HEADER, 'is required when the token grants more than one company');
    }
    companyId = claims.companies[0];
  } else {
    if (!claims.companies.includes(requestedCompany)) {
      throw new ForbiddenError('The token does not grant access to this company');
    }
    companyId = requestedCompany;
  }

  if (!claims.scopes.includes(options.requiredScope)) {
    throw new ForbiddenError(`This operation requires the scope ${options.requiredScope}`);
  }
  return { subject: claims.subject, companyId, scopes: claims.scopes, applicationType };
}
