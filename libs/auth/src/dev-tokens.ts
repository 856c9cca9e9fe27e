import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { DEV_AUDIENCE, DEV_ISSUER } from './auth-settings';

/** An EC P-256 key pair in PEM form, used to sign dev and test tokens. Never used in production. */
export interface DevKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function generateDevKeyPair(): DevKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * The embedded default's key pair lives under `.data/dev-keys` so that `npm start` and
 * `npm run token` agree without any configuration. Created on first use.
 */
export function loadOrCreateDevKeyPair(dir: string): DevKeyPair {
  const privatePath = join(dir, 'dev-private.pem');
  const publicPath = join(dir, 'dev-public.pem');
  if (existsSync(privatePath) && existsSync(publicPath)) {
    return { privateKeyPem: readFileSync(privatePath, 'utf8'), publicKeyPem: readFileSync(publicPath, 'utf8') };
  }
  const pair = generateDevKeyPair();
  mkdirSync(dir, { recursive: true });
  writeFileSync(privatePath, pair.privateKeyPem, { mode: 0o600 });
  writeFileSync(publicPath, pair.publicKeyPem);
  return pair;
}

export interface DevTokenRequest {
  companies: string[];
  scope: string;
  subject?: string;
  /** Lifetime in seconds (default one hour); negative values produce an already expired token. */
  expiresInSeconds?: number;
  notBeforeSeconds?: number;
  issuer?: string;
  audience?: string;
}

export async function signDevToken(privateKeyPem: string, request: DevTokenRequest): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ companies: request.companies, scope: request.scope })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setSubject(request.subject ?? 'dev-user')
    .setIssuer(request.issuer ?? DEV_ISSUER)
    .setAudience(request.audience ?? DEV_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + (request.expiresInSeconds ?? 3600));
  if (request.notBeforeSeconds !== undefined) jwt.setNotBefore(now + request.notBeforeSeconds);
  return jwt.sign(createPrivateKey(privateKeyPem));
}
