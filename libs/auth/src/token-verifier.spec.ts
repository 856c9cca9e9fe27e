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
});
