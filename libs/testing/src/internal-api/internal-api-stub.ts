import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuthContext, authenticateServiceCall, INTERNAL_API_HEADER, ServiceTokenVerifier } from '@erp/auth';
import { readInternalBody } from '@erp/contracts';
import type { TestAuth } from '../auth/test-auth';

/** A call the stub received, for assertions: who called, for which company, with what. */
export interface ReceivedInternalCall {
  method: string;
  path: string;
  caller: string;
  companyId: string;
  body?: unknown;
}

export interface InternalApiStub {
  /** The base URL to give the service under test (e.g. its CUSTOMERS_URL). */
  url: string;
  /** The called service this stub stands for (its tokens' audience). */
  service: string;
  /** Every call that passed the credential check, in order. */
  received: ReceivedInternalCall[];
  /** Calls refused for their credentials (401/400/403), so a test can see none was made. */
  refused: number;
  /**
   * The record `GET path` answers for `companyId`, checked against its contract class first (the
   * class the real service's answer is checked against), so the stub cannot answer what the real
   * service would not. Everything else is 404, as the real service says of a record it lacks.
   */
  answer<T extends object>(companyId: string, path: string, contract: new () => T, body: T): void;
  /** Answers every call with this status from now on (e.g. 503), or normally again with `undefined`. */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

/**
 * Another service's internal API as an integration test of one service needs it: a real HTTP
 * server that checks the real service tokens (`@erp/auth`, the same secret as the service under
 * test) and answers from records the test puts in, each checked against the contract class of
 * `@erp/contracts` that the real owner's own tests check its answers against. A service's
 * integration tests cannot start another team's service (apps never depend on apps); the whole
 * pairing runs for real in the end-to-end suites (apps/api-e2e `cross-service-reads`).
 */
export async function startInternalApiStub(auth: TestAuth, service: string): Promise<InternalApiStub> {
  const verifier = new ServiceTokenVerifier(service, { current: auth.internalApiSecret });
  const records = new Map<string, unknown>();
  const received: ReceivedInternalCall[] = [];
  let failure: number | undefined;
  const stub = { refused: 0 };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const reply = (status: number, body?: unknown) => {
      // As every internal route answers (see INTERNAL_API_HEADER).
      response.writeHead(status, { [INTERNAL_API_HEADER]: '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    let caller: AuthContext;
    try {
      caller = await authenticateServiceCall(request.headers, verifier);
    } catch (error) {
      stub.refused++;
      return reply((error as { status?: number }).status ?? 401, { message: 'refused' });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '/';
    received.push({ method: request.method ?? '', path, caller: caller.subject.replace(/^service:/, ''), companyId: caller.companyId, body: text ? JSON.parse(text) : undefined });
    if (failure !== undefined) return reply(failure, { message: 'failing on purpose' });
    if (request.method === 'POST') return reply(204);
    const record = records.get(`${caller.companyId} ${path}`);
    return record === undefined ? reply(404, { message: 'not found' }) : reply(200, record);
  };
  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    service,
    received,
    get refused() {
      return stub.refused;
    },
    answer(companyId, path, contract, body) {
      records.set(`${companyId} ${path}`, readInternalBody(contract, JSON.parse(JSON.stringify(body)), `the stub's ${path}`));
    },
    failWith(status) {
      failure = status;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
