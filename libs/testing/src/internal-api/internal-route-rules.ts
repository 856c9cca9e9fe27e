import { INTERNAL_API_HEADER } from '@erp/auth';
import type { TestAuth } from '../auth/test-auth';
import type { RecordingFetch } from '../http/recording-fetch';

export interface InternalRouteRulesOptions {
  /** The service under test (the audience its routes accept). */
  service: string;
  /** A caller the rules use (any service name). */
  caller: string;
  /** The running app's auth and recording fetch (read when the tests run). */
  app: () => { auth: TestAuth; http: RecordingFetch };
  /** The company whose record `path` names, and the internal path that answers 200 for it. */
  company: string;
  path: () => string;
}

/**
 * The rules every internal route keeps (docs/cross-service-reads.md), as tests: only a service
 * token opens it (401 without one, with a user's, or with one for another service), the call names
 * its one company (400 without `ipp-company-id`), and the token is for that company (403).
 */
export function describeInternalRouteRules(o: InternalRouteRulesOptions): void {
  describe(`the internal route rules of ${o.service}`, () => {
    const get = (headers: Record<string, string>) => o.app().http.request(o.path(), { headers });

    it('answers a service token for this service and this company', async () => {
      expect((await get(await o.app().auth.serviceHeaders(o.caller, o.service, o.company))).status).toBe(200);
    });

    it("marks every answer, a refusal included, as the route's own (erp-internal-api), unlike an unknown route's 404", async () => {
      const answered = await get(await o.app().auth.serviceHeaders(o.caller, o.service, o.company));
      const refused = await get({ 'ipp-company-id': o.company });
      expect([answered.headers.get(INTERNAL_API_HEADER), refused.headers.get(INTERNAL_API_HEADER)]).toEqual(['1', '1']);
      const unknown = await o.app().http.request('/internal/v0/no-such-route', { headers: await o.app().auth.serviceHeaders(o.caller, o.service, o.company) });
      expect([unknown.status, unknown.headers.get(INTERNAL_API_HEADER)]).toEqual([404, null]);
    });

    it('refuses a call without credentials, with a user token, or with a token for another service (401)', async () => {
      const auth = o.app().auth;
      expect((await get({ 'ipp-company-id': o.company })).status).toBe(401);
      const user = await auth.headers({ company: o.company });
      expect((await get(user)).status).toBe(401);
      expect((await get(await auth.serviceHeaders(o.caller, 'some-other-service', o.company))).status).toBe(401);
    });

    it('needs the company of the call (400), and a token for that company (403)', async () => {
      const auth = o.app().auth;
      const { 'ipp-company-id': _company, ...withoutCompany } = await auth.serviceHeaders(o.caller, o.service, o.company);
      expect((await get(withoutCompany)).status).toBe(400);
      const forAnother = await auth.serviceHeaders(o.caller, o.service, `${o.company}9`);
      expect((await get({ ...forAnother, 'ipp-company-id': o.company })).status).toBe(403);
    });
  });
}
