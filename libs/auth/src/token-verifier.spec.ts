import { DEV_AUDIENCE, DEV_ISSUER } from './auth-settings';
import { generateDevKeyPair, signDevToken } from './dev-tokens';
import { TokenVerifier } from './token-verifier';

describe('TokenVerifier', () => {
  it('needs a JWKS URL or a public key', async () => {
    await expect(TokenVerifier.create({ issuer: DEV_ISSUER, audience: DEV_AUDIENCE })).rejects.toThrow(
      /JWKS URL or a public key/,
    );
  });

  it('reads subject, companies and scopes from a valid token', async () => {
    const keys = generateDevKeyPair();
    const verifier = await TokenVerifier.create({
      issuer: DEV_ISSUER,
      audience: DEV_AUDIENCE,
      publicKeyPem: keys.publicKeyPem,
    });
    const token = await signDevToken(keys.privateKeyPem, {
      subject: 'user-1',
      companies: ['1000001', '1000002'],
      scope: 'erp:read webhooks:manage',
    });
    expect(await verifier.verify(token)).toEqual({
      subject: 'user-1',
      companies: ['1000001', '1000002'],
      scopes: ['erp:read', 'webhooks:manage'],
    });
  });

  it('allows the configured clock skew on exp', async () => {
    const keys = generateDevKeyPair();
    const settings = { issuer: DEV_ISSUER, audience: DEV_AUDIENCE, publicKeyPem: keys.publicKeyPem };
    const justExpired = await signDevToken(keys.privateKeyPem, {
      companies: ['1'],
      scope: 'erp:read',
      expiresInSeconds: -10,
    });
    await expect((await TokenVerifier.create(settings)).verify(justExpired)).rejects.toMatchObject({
      status: 401,
    });
    const tolerant = await TokenVerifier.create({ ...settings, clockToleranceSeconds: 60 });
    await expect(tolerant.verify(justExpired)).resolves.toMatchObject({ companies: ['1'] });
  });

  it('reuses a verified token only until it expires, and never remembers a failure', async () => {
    const keys = generateDevKeyPair();
    const verifier = await TokenVerifier.create({
      issuer: DEV_ISSUER,
      audience: DEV_AUDIENCE,
      publicKeyPem: keys.publicKeyPem,
      clockToleranceSeconds: 0,
    });
    const token = await signDevToken(keys.privateKeyPem, { companies: ['1'], scope: 'erp:read', expiresInSeconds: 2 });
    const first = await verifier.verify(token);
    first.companies.push('2'); // a caller's change must not leak into the next answer
    expect(await verifier.verify(token)).toEqual({ subject: 'dev-user', companies: ['1'], scopes: ['erp:read'] });

    // Only Date moves (3 s on: past exp); timers and ticks stay real for the crypto.
    jest.useFakeTimers({
      now: Date.now() + 3000,
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    try {
      await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401 });
    } finally {
      jest.useRealTimers();
    }
    const forged = `${token.slice(0, -4)}AAAA`;
    await expect(verifier.verify(forged)).rejects.toMatchObject({ status: 401 });
    await expect(verifier.verify(forged)).rejects.toMatchObject({ status: 401 });
  });
});
