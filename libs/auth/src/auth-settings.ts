/** How tokens are verified. Production sets a JWKS URL; the embedded default passes a local public key. */
export interface AuthSettings {
  issuer: string;
  audience: string;
  /** JWKS endpoint of the identity provider (production). */
  jwksUrl?: string;
  /** SPKI PEM public key (embedded default and tests). Used when no jwksUrl is given. */
  publicKeyPem?: string;
  /** Accepted signature algorithms; `none` and HMAC are never accepted. */
  algorithms?: string[];
  /** Allowed clock skew in seconds for exp/nbf. */
  clockToleranceSeconds?: number;
}

export const DEFAULT_ALGORITHMS = ['ES256', 'RS256', 'PS256', 'EdDSA'];
export const DEV_ISSUER = 'erp-dev';
export const DEV_AUDIENCE = 'erp-api';

export const SCOPES = {
  read: 'erp:read',
  write: 'erp:write',
  manageWebhooks: 'webhooks:manage',
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
