import { createSecretKey, createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { ApiError } from '@erp/errors';
import { DEV_AUDIENCE, DEV_ISSUER, SCOPES } from './auth-settings';
import {
  APPLICATION_TYPE_HEADER,
  type AuthenticateOptions,
  authenticateRequest,
  COMPANY_HEADER,
  type HeaderBag,
  scopeForMethod,
} from './authenticate-request';
import { type DevKeyPair, type DevTokenRequest, generateDevKeyPair, signDevToken } from './dev-tokens';
import { TokenVerifier } from './token-verifier';

const READ_WRITE = `${SCOPES.read} ${SCOPES.write}`;
const V1: AuthenticateOptions = { requireApplicationType: true, requiredScope: SCOPES.read };
const V3: AuthenticateOptions = { requireApplicationType: false, requiredScope: SCOPES.read };

let keys: DevKeyPair;
let verifier: TokenVerifier;

beforeAll(async () => {
  keys = generateDevKeyPair();
  verifier = await TokenVerifier.create({
    issuer: DEV_ISSUER,
    audience: DEV_AUDIENCE,
    publicKeyPem: keys.publicKeyPem,
  });
});

function token(request: Partial<DevTokenRequest> = {}): Promise<string> {
  return signDevToken(keys.privateKeyPem, { companies: ['1000001'], scope: READ_WRITE, ...request });
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function claims(extra: object = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: 'dev-user',
    iss: DEV_ISSUER,
    aud: DEV_AUDIENCE,
    iat: now,
    exp: now + 3600,
    companies: ['1000001'],
    scope: READ_WRITE,
    ...extra,
  };
}

async function v1Headers(request: Partial<DevTokenRequest> = {}, extra: HeaderBag = {}): Promise<HeaderBag> {
  return {
    authorization: `Bearer ${await token(request)}`,
    [APPLICATION_TYPE_HEADER]: 'test-client',
    ...extra,
  };
}

/** The ApiError the call fails with (the test fails if it succeeds or throws anything else). */
async function failure(headers: HeaderBag, options: AuthenticateOptions = V1): Promise<ApiError> {
  const error = await authenticateRequest(headers, verifier, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function expectUnauthorized(headers: HeaderBag): Promise<void> {
  const error = await failure(headers);
  expect(error.status).toBe(401);
  expect(error.headers['www-authenticate']).toMatch(/^Bearer\b/);
}

describe('authenticateRequest', () => {
  describe('401: no valid bearer token', () => {
    it('refuses a request without Authorization', async () => {
      await expectUnauthorized({ [APPLICATION_TYPE_HEADER]: 'test-client' });
    });

    it.each([
      ['an empty header', ''],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['a scheme without a token', 'Bearer '],
      ['a token that is not a JWT', 'Bearer not-a-jwt'],
    ])('refuses %s', async (_label, authorization) => {
      await expectUnauthorized({ authorization, [APPLICATION_TYPE_HEADER]: 'test-client' });
    });

    it('refuses a token signed by another key', async () => {
      const other = generateDevKeyPair();
      const foreign = await signDevToken(other.privateKeyPem, { companies: ['1000001'], scope: READ_WRITE });
      await expectUnauthorized({
        authorization: `Bearer ${foreign}`,
        [APPLICATION_TYPE_HEADER]: 'test-client',
      });
    });

    it('refuses a token whose payload was changed after signing', async () => {
      const [header, , signature] = (await token()).split('.');
      const forged = `${header}.${base64url(claims({ companies: ['9999999'] }))}.${signature}`;
      await expectUnauthorized({
        authorization: `Bearer ${forged}`,
        [APPLICATION_TYPE_HEADER]: 'test-client',
      });
    });

    it('refuses an expired token', async () => {
      await expectUnauthorized(await v1Headers({ expiresInSeconds: -60 }));
    });

    it('refuses a token whose nbf is in the future', async () => {
      await expectUnauthorized(await v1Headers({ notBeforeSeconds: 300 }));
    });

    it('refuses a token for another audience', async () => {
      await expectUnauthorized(await v1Headers({ audience: 'some-other-api' }));
    });

    it('refuses a token from another issuer', async () => {
      await expectUnauthorized(await v1Headers({ issuer: 'https://attacker.example' }));
    });

    it('refuses an unsigned token (alg: none)', async () => {
      const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims())}.`;
      await expectUnauthorized({
        authorization: `Bearer ${unsigned}`,
        [APPLICATION_TYPE_HEADER]: 'test-client',
      });
    });

    it('refuses an HS256 token keyed with the public key (algorithm confusion)', async () => {
      const hmac = await new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(createSecretKey(Buffer.from(keys.publicKeyPem)));
      await expectUnauthorized({ authorization: `Bearer ${hmac}`, [APPLICATION_TYPE_HEADER]: 'test-client' });
    });

    it('refuses a token without a subject', async () => {
      const now = Math.floor(Date.now() / 1000);
      const noSubject = await new SignJWT({ companies: ['1000001'], scope: READ_WRITE })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(DEV_ISSUER)
        .setAudience(DEV_AUDIENCE)
        .setExpirationTime(now + 3600)
        .sign(createPrivateKey(keys.privateKeyPem));
      await expectUnauthorized({
        authorization: `Bearer ${noSubject}`,
        [APPLICATION_TYPE_HEADER]: 'test-client',
      });
    });

    it('does not say which check failed', async () => {
      const expired = await failure(await v1Headers({ expiresInSeconds: -60 }));
      const wrongAudience = await failure(await v1Headers({ audience: 'other' }));
      expect(expired.message).toBe(wrongAudience.message);
    });
  });

  describe('400: missing or malformed ipp-* headers', () => {
    it('requires ipp-company-id when the token grants several companies', async () => {
      const error = await failure(await v1Headers({ companies: ['1000001', '1000002'] }));
      expect(error.status).toBe(400);
      expect(error.fault).toBe('InvalidHeader');
      expect(error.fieldProblems[0].field).toBe(COMPANY_HEADER);
    });

    it.each([
      ['empty', ''],
      ['with a space', '1000 001'],
      ['with a slash', '1000001/2'],
      ['over 64 characters', 'a'.repeat(65)],
      ['with a newline', '1000001\n'],
    ])('refuses a company id that is %s', async (_label, companyId) => {
      const error = await failure(await v1Headers({}, { [COMPANY_HEADER]: companyId }));
      expect(error.status).toBe(400);
      expect(error.fieldProblems[0].field).toBe(COMPANY_HEADER);
    });

    it('requires ipp-application-type on v1 requests', async () => {
      const headers = { authorization: `Bearer ${await token()}` };
      const error = await failure(headers);
      expect(error.status).toBe(400);
      expect(error.fieldProblems[0].field).toBe(APPLICATION_TYPE_HEADER);
    });

    it.each([
      ['empty', ''],
      ['only spaces', '   '],
      ['over 100 characters', 'a'.repeat(101)],
      ['with a control character', 'client\u0007'],
      ['with a line break', 'client\r\nx-injected: 1'],
      ['not ASCII', 'cliënt'],
    ])('refuses an application type that is %s', async (_label, applicationType) => {
      const error = await failure(await v1Headers({}, { [APPLICATION_TYPE_HEADER]: applicationType }));
      expect(error.status).toBe(400);
      expect(error.fieldProblems[0].field).toBe(APPLICATION_TYPE_HEADER);
    });

    it('accepts an application type of exactly 100 printable characters', async () => {
      const name = 'A b-c.'.repeat(17).slice(0, 100);
      const auth = await authenticateRequest(
        await v1Headers({}, { [APPLICATION_TYPE_HEADER]: name }),
        verifier,
        V1,
      );
      expect(auth.applicationType).toBe(name);
    });

    it('does not require the application type where the family does not', async () => {
      const auth = await authenticateRequest({ authorization: `Bearer ${await token()}` }, verifier, V3);
      expect(auth.applicationType).toBeUndefined();
    });

    it.each([COMPANY_HEADER, APPLICATION_TYPE_HEADER])('refuses %s sent twice', async (header) => {
      const value = header === COMPANY_HEADER ? '1000001' : 'test-client';
      const error = await failure(await v1Headers({}, { [header]: [value, value] }));
      expect(error.status).toBe(400);
      expect(error.fieldProblems[0].field).toBe(header);
    });

    it('accepts a header that arrives as a one-element list', async () => {
      const auth = await authenticateRequest(
        await v1Headers({}, { [COMPANY_HEADER]: ['1000001'] }),
        verifier,
        V1,
      );
      expect(auth.companyId).toBe('1000001');
    });
  });

  describe('403: company or scope not granted', () => {
    it('refuses a company the token does not grant', async () => {
      const error = await failure(
        await v1Headers({ companies: ['1000001', '1000002'] }, { [COMPANY_HEADER]: '1000003' }),
      );
      expect(error.status).toBe(403);
      expect(error.fault).toBe('Forbidden');
    });

    it('refuses a token that grants no company, with or without the header', async () => {
      expect((await failure(await v1Headers({ companies: [] }))).status).toBe(403);
      expect((await failure(await v1Headers({ companies: [] }, { [COMPANY_HEADER]: '1000001' }))).status).toBe(403);
    });

    it('refuses a company header that differs from the only granted company', async () => {
      const error = await failure(
        await v1Headers({ companies: ['1000001'] }, { [COMPANY_HEADER]: '1000002' }),
      );
      expect(error.status).toBe(403);
    });

    it('refuses a write with a read-only token', async () => {
      const error = await failure(await v1Headers({ scope: SCOPES.read }), {
        ...V1,
        requiredScope: SCOPES.write,
      });
      expect(error.status).toBe(403);
      expect(error.message).toContain(SCOPES.write);
    });

    it('refuses the webhooks API without webhooks:manage', async () => {
      const error = await failure(await v1Headers({ scope: READ_WRITE }), {
        ...V3,
        requiredScope: SCOPES.manageWebhooks,
      });
      expect(error.status).toBe(403);
    });

    it('matches scopes as whole words', async () => {
      const error = await failure(await v1Headers({ scope: 'erp:readonly erp:writer' }));
      expect(error.status).toBe(403);
    });
  });

  describe('accepted requests', () => {
    it('uses the only granted company when the header is omitted', async () => {
      const auth = await authenticateRequest(await v1Headers({ companies: ['1000001'] }), verifier, V1);
      expect(auth.companyId).toBe('1000001');
    });

    it('uses the requested company when the token grants it', async () => {
      const headers = await v1Headers({ companies: ['1000001', '1000002'] }, { [COMPANY_HEADER]: '1000002' });
      const auth = await authenticateRequest(headers, verifier, V1);
      expect(auth.companyId).toBe('1000002');
    });

    it('returns the subject, company, scopes and application type', async () => {
      const headers = await v1Headers({ subject: 'user-7', scope: `${SCOPES.read}  ${SCOPES.write}` });
      expect(await authenticateRequest(headers, verifier, V1)).toEqual({
        subject: 'user-7',
        companyId: '1000001',
        scopes: [SCOPES.read, SCOPES.write],
        applicationType: 'test-client',
      });
    });

    it('reads numeric company ids in the token as strings', async () => {
      const numeric = await new SignJWT(claims({ companies: [1000001] }))
        .setProtectedHeader({ alg: 'ES256' })
        .sign(createPrivateKey(keys.privateKeyPem));
      const auth = await authenticateRequest(
        { authorization: `Bearer ${numeric}`, [COMPANY_HEADER]: '1000001' },
        verifier,
        V3,
      );
      expect(auth.companyId).toBe('1000001');
    });

    it('reads the Bearer scheme case-insensitively, with one or more spaces (RFC 9110)', async () => {
      for (const scheme of ['bearer ', 'BEARER ', 'Bearer   ']) {
        const auth = await authenticateRequest({ authorization: `${scheme}${await token()}` }, verifier, V3);
        expect(auth.companyId).toBe('1000001');
      }
    });

    it('tolerates surrounding whitespace around the Authorization value', async () => {
      const auth = await authenticateRequest({ authorization: ` Bearer ${await token()} ` }, verifier, V3);
      expect(auth.companyId).toBe('1000001');
    });
  });

  describe('precedence: 401, then 400, then 403', () => {
    it('answers 401 before looking at any ipp-* header', async () => {
      const error = await failure({ authorization: 'Bearer x.y.z', [COMPANY_HEADER]: 'bad id!' });
      expect(error.status).toBe(401);
    });

    it('answers 400 for a malformed company id before checking whether it is granted', async () => {
      const error = await failure(
        await v1Headers({ companies: ['1000001'] }, { [COMPANY_HEADER]: 'not granted!' }),
      );
      expect(error.status).toBe(400);
    });

    it('answers 400 for a missing application type before refusing an ungranted company', async () => {
      const headers = { authorization: `Bearer ${await token()}`, [COMPANY_HEADER]: '1000009' };
      const error = await failure(headers);
      expect(error.status).toBe(400);
      expect(error.fieldProblems[0].field).toBe(APPLICATION_TYPE_HEADER);
    });

    it('checks the company header before the application type', async () => {
      const headers = { authorization: `Bearer ${await token()}`, [COMPANY_HEADER]: 'bad id!' };
      const error = await failure(headers);
      expect(error.fieldProblems[0].field).toBe(COMPANY_HEADER);
    });

    it('answers 400 for a missing company header before checking the scope', async () => {
      const error = await failure(
        await v1Headers({ companies: ['1000001', '1000002'], scope: 'other:scope' }),
      );
      expect(error.status).toBe(400);
    });

    it('refuses an ungranted company before a missing scope', async () => {
      const error = await failure(await v1Headers({ scope: 'other:scope' }, { [COMPANY_HEADER]: '1000009' }));
      expect(error.status).toBe(403);
      expect(error.message).toMatch(/company/);
    });
  });
});

describe('scopeForMethod', () => {
  it.each(['GET', 'HEAD', 'OPTIONS', 'get'])('needs erp:read for %s', (method) => {
    expect(scopeForMethod(method)).toBe(SCOPES.read);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'post'])('needs erp:write for %s', (method) => {
    expect(scopeForMethod(method)).toBe(SCOPES.write);
  });
});
