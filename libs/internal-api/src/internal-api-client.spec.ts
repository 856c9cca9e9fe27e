import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_API_HEADER, ServiceTokenSigner, ServiceTokenVerifier } from '@erp/auth';
import { CustomerEventData } from '@erp/contracts';
import { ServiceUnavailableError } from '@erp/errors';
import { InternalApiClient } from './internal-api-client';
import { internalCalls } from './internal-api-metrics';

const SECRET = 'x'.repeat(40);
const CUSTOMER = {
  number: '10001',
  name: 'Acme AS',
  status: 'Active',
  currencyId: 'NOK',
  version: '3',
  lastModifiedDateTime: '2026-11-27T10:00:00.000',
  link: '/v1/customer/10001',
};

interface Seen {
  caller: string;
  companyId: string;
  header: string | undefined;
}

/** A called service on a real socket: checks the token as the real one does, then `respond`s. */
async function calledService(respond: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const verifier = new ServiceTokenVerifier('customers-v1', { current: SECRET });
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const token = String(request.headers.authorization).replace(/^Bearer /, '');
    verifier.verify(token).then(
      ({ caller, companyId }) => {
        seen.push({ caller, companyId, header: request.headers['ipp-company-id'] as string | undefined });
        respond(request, response);
      },
      () => {
        response.writeHead(401).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** An answer of an internal route (which always carries `erp-internal-api`), or of another route. */
const json = (status: number, body?: unknown, internalRoute = true) => (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(status, { 'content-type': 'application/json', ...(internalRoute ? { [INTERNAL_API_HEADER]: '1' } : {}) }).end(body === undefined ? undefined : JSON.stringify(body));
};

/** The promise, or a rejection naming the wait once `ms` have passed (a liveness bound, not a speed claim). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A port nothing listens on (a replica that is gone). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}

describe('InternalApiClient, against real HTTP servers', () => {
  const servers: Server[] = [];
  const clients: InternalApiClient[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  async function setUp(respond: Parameters<typeof calledService>[0], options: { before?: string[]; timeoutMs?: number } = {}) {
    const service = await calledService(respond);
    servers.push(service.server);
    const client = new InternalApiClient({
      target: 'customers-v1',
      urls: [...(options.before ?? []), service.url],
      signer: new ServiceTokenSigner('sales-orders-v3', SECRET),
      timeoutMs: options.timeoutMs ?? 2_000,
    });
    clients.push(client);
    return { client, seen: service.seen };
  }

  const outcome = async (value: string) => (await internalCalls.get()).values.find((v) => v.labels.target === 'customers-v1' && v.labels.outcome === value)?.value ?? 0;

  it('reads a record as its contract class, with a token for the called service and the one company', async () => {
    const { client, seen } = await setUp(json(200, CUSTOMER));
    const answer = await client.read('1000001', '/internal/v1/customers/10001', CustomerEventData);
    expect(answer).toEqual({ found: true, body: expect.any(CustomerEventData) });
    expect(answer.found && answer.body.name).toBe('Acme AS');
    expect(seen).toEqual([{ caller: 'sales-orders-v3', companyId: '1000001', header: '1000001' }]);
  });

  it('says not found on 404, asking once', async () => {
    const { client, seen } = await setUp(json(404, { message: 'no' }));
    expect(await client.read('1000001', '/internal/v1/customers/9', CustomerEventData)).toEqual({ found: false });
    expect(seen).toHaveLength(1);
  });

  it("does not take a 404 without the route's header (an older release that lacks the route) for 'no such record'", async () => {
    const older = await calledService(json(404, { message: 'Cannot GET' }, false));
    servers.push(older.server);
    const { client, seen } = await setUp(json(200, CUSTOMER), { before: [older.url] });
    expect((await client.read('1000001', '/internal/v1/customers/10001', CustomerEventData)).found).toBe(true);
    expect([older.seen.length, seen.length]).toEqual([1, 1]);
    const alone = new InternalApiClient({ target: 'customers-v1', urls: [older.url], signer: new ServiceTokenSigner('sales-orders-v3', SECRET) });
    clients.push(alone);
    await expect(alone.read('1000001', '/internal/v1/customers/10001', CustomerEventData)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('goes to the next replica when one refuses the connection', async () => {
    const { client, seen } = await setUp(json(200, CUSTOMER), { before: [await closedPort()] });
    expect((await client.read('1000001', '/internal/v1/customers/10001', CustomerEventData)).found).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('tries twice when the answer is a 5xx, then answers 503 (Retry-After) itself', async () => {
    const before = await outcome('unavailable');
    const { client, seen } = await setUp(json(503, { message: 'draining' }));
    const error = await client.read('1000001', '/internal/v1/customers/10001', CustomerEventData).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).status).toBe(503);
    expect(seen).toHaveLength(2);
    expect(await outcome('unavailable')).toBe(before + 1);
  });

  it('does not retry refused credentials (a configuration fault), and answers 503', async () => {
    const wrong = await calledService(json(200, CUSTOMER));
    servers.push(wrong.server);
    const client = new InternalApiClient({ target: 'customers-v1', urls: [wrong.url], signer: new ServiceTokenSigner('sales-orders-v3', 'y'.repeat(40)) });
    clients.push(client);
    await expect(client.read('1000001', '/internal/v1/customers/10001', CustomerEventData)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(wrong.seen).toHaveLength(0);
  });

  it('answers 503 when the answer breaks the contract (another version of the called service)', async () => {
    const before = await outcome('off_contract');
    const { client } = await setUp(json(200, { ...CUSTOMER, status: 'Asleep' }));
    await expect(client.read('1000001', '/internal/v1/customers/10001', CustomerEventData)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(await outcome('off_contract')).toBe(before + 1);
  });

  it('gives up on a replica that does not answer within the timeout, twice, then answers 503', async () => {
    // A timeout above the 2 s default, so that the wait below (at least two of them) shows the
    // configured one applied to each attempt; that the call ends at all shows it gave up (the
    // replica never answers), with a minute's patience against the 5 s it takes.
    const timeoutMs = 2_500;
    const { client, seen } = await setUp(() => undefined, { timeoutMs });
    const started = Date.now();
    const answer = client.read('1000001', '/internal/v1/customers/10001', CustomerEventData);
    await expect(withTimeout(answer, 60_000)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * timeoutMs - 20);
  }, 120_000);

  it('sends a body with POST and resolves on 204', async () => {
    let received = '';
    const { client } = await setUp((request, response) => {
      request.on('data', (chunk: Buffer) => (received += chunk.toString()));
      request.on('end', () => response.writeHead(204).end());
    });
    await client.send('1000001', '/internal/v1/attachment-events', { id: 'e1' });
    expect(JSON.parse(received)).toEqual({ id: 'e1' });
  });
});
