import { SignJWT } from 'jose';
import { DEV_AUDIENCE, DEV_ISSUER } from './auth-settings';
import { generateDevKeyPair, signDevToken } from './dev-tokens';
import { authenticateServiceCall, SERVICE_TOKEN_ISSUER, ServiceTokenSigner, ServiceTokenVerifier } from './service-tokens';
import { TokenVerifier } from './token-verifier';

const SECRET = 'a'.repeat(24) + 'internal-secret-1';
const OTHER_SECRET = 'b'.repeat(24) + 'internal-secret-2';

const customers = new ServiceTokenVerifier('customers-v1', { current: SECRET });
const salesOrders = new ServiceTokenSigner('sales-orders-v3', SECRET);

function bearer(token: string, company?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(company === undefined ? {} : { 'ipp-company-id': company }) };
}

describe('service tokens', () => {
  it('carry the calling service and one company to the called service', async () => {
    const token = await salesOrders.sign('customers-v1', '1000001');
    expect(await customers.verify(token)).toEqual({ caller: 'sales-orders-v3', companyId: '1000001' });
    expect(await authenticateServiceCall(bearer(token, '1000001'), customers)).toEqual({
      subject: 'service:sales-orders-v3',
      companyId: '1000001',
      scopes: [],
    });
  });

  it('are refused by a service they were not signed for', async () => {
    const token = await salesOrders.sign('supplier-invoices-v1', '1000001');
    await expect(customers.verify(token)).rejects.toMatchObject({ status: 401 });
  });

  it('are refused when signed with another secret, and accepted with the previous one during a rotation', async () => {
    const old = await new ServiceTokenSigner('sales-orders-v3', OTHER_SECRET).sign('customers-v1', '1000001');
    await expect(customers.verify(old)).rejects.toMatchObject({ status: 401 });
    const rotating = new ServiceTokenVerifier('customers-v1', { current: SECRET, previous: OTHER_SECRET });
    expect(await rotating.verify(old)).toEqual({ caller: 'sales-orders-v3', companyId: '1000001' });
  });

  it('are refused once expired', async () => {
    const expired = await new SignJWT({ company: '1000001' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(SERVICE_TOKEN_ISSUER)
      .setSubject('sales-orders-v3')
      .setAudience('customers-v1')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET));
    await expect(customers.verify(expired)).rejects.toMatchObject({ status: 401 });
  });

  it('need a company claim', async () => {
    const companyless = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(SERVICE_TOKEN_ISSUER)
      .setSubject('sales-orders-v3')
      .setAudience('customers-v1')
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(SECRET));
    await expect(customers.verify(companyless)).rejects.toMatchObject({ status: 401 });
  });

  it('and user tokens never pass for each other', async () => {
    const keys = generateDevKeyPair();
    const users = await TokenVerifier.create({ issuer: DEV_ISSUER, audience: DEV_AUDIENCE, publicKeyPem: keys.publicKeyPem });
    const userToken = await signDevToken(keys.privateKeyPem, { companies: ['1000001'], scope: 'erp:read erp:write' });
    await expect(customers.verify(userToken)).rejects.toMatchObject({ status: 401 });
    await expect(users.verify(await salesOrders.sign(DEV_AUDIENCE, '1000001'))).rejects.toMatchObject({ status: 401 });
  });

  it('refuse secrets shorter than 256 bits', () => {
    expect(() => new ServiceTokenSigner('sales-orders-v3', 'short')).toThrow(/at least 32 characters/);
    expect(() => new ServiceTokenVerifier('customers-v1', { current: 'short' })).toThrow(/at least 32 characters/);
  });
});

describe('authenticateServiceCall', () => {
  it('needs the credentials (401), the company header (400), and the token to be for that company (403)', async () => {
    const token = await salesOrders.sign('customers-v1', '1000001');
    await expect(authenticateServiceCall({ 'ipp-company-id': '1000001' }, customers)).rejects.toMatchObject({ status: 401 });
    await expect(authenticateServiceCall(bearer('not.a.token', '1000001'), customers)).rejects.toMatchObject({ status: 401 });
    await expect(authenticateServiceCall(bearer(token), customers)).rejects.toMatchObject({ status: 400 });
    await expect(authenticateServiceCall(bearer(token, '1000002'), customers)).rejects.toMatchObject({ status: 403 });
  });
});
