import type { RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';
import { explainViolations } from './v3-contract-extensions';
import { describeViolations, readResponse, V3Contract, type ContractRequest, type ContractResponse, type Violation } from './v3-contract';

const COMPANY = '1000001';

/** One request of the contract run, named by the document's operationId. */
export interface Call {
  operationId: string;
  pathParams?: Record<string, string | number>;
  /** Query parameters in the order sent; a repeated name is an array as the document's `form`/`explode` style sends it. */
  query?: Array<[string, string]>;
  body?: unknown;
  /** The body's media type (default application/json). */
  contentType?: string;
  /** The Accept header (default application/json). */
  accept?: string;
  ifMatch?: string;
}

/** What the contract spec's steps use: the one running system, the order they build, and the checks. */
export type V3ContractRun = ReturnType<typeof useV3ContractRun>;

/**
 * Starts the whole system for the calling describe (gateway included), with a customer and three
 * inventory items made through the public interfaces, and stops it at the end. The steps of the run
 * share one order (`need` gives what earlier steps set), and the run records which operations were
 * called, which documented extensions occurred and every 5xx, for the spec's closing checks.
 */
export function useV3ContractRun() {
  const auth = new TestAuth();
  const contract = new V3Contract();
  let testSystem: TestSystem | undefined;
  let system: RunningSystem;
  /** Extensions some response of this run showed (by name). */
  const seen = new Set<string>();
  /** Operations a request of this run was sent to. */
  const called = new Set<string>();
  const fivexx: string[] = [];

  /** What the steps share: the customer, the items, the order and its current ETag (set as answers arrive). */
  interface Fixture {
    customerNumber: string;
    /** Inventory items the order lines use. */
    items: string[];
    type: string;
    orderId: string;
    etag: string;
    lineIds: number[];
  }
  const fixture: Partial<Fixture> = {};

  function need<K extends keyof Fixture>(key: K): Fixture[K] {
    const value = fixture[key];
    if (value === undefined) throw new Error(`fixture ${key} is missing: an earlier step failed`);
    return value as Fixture[K];
  }


  /** The request headers a client generated from the document sends: a bearer token (it grants one company), JSON. */
  async function requestHeaders(call: Call): Promise<Record<string, string>> {
    const { 'ipp-company-id': _company, ...headers } = await auth.headers({ company: COMPANY, applicationType: null });
    if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
    if (call.accept !== undefined) headers['accept'] = call.accept;
    if (call.ifMatch !== undefined) headers['if-match'] = call.ifMatch;
    return headers;
  }

  /**
   * Sends one request built from the document and returns the response with every departure from the
   * document that no documented extension explains (the request's own included, so the test cannot drift).
   */
  async function exchange(call: Call): Promise<{ response: ContractResponse; unexplained: Violation[] }> {
    const operation = contract.operation(call.operationId);
    called.add(call.operationId);
    const request: ContractRequest = {
      method: operation.method as ContractRequest['method'],
      path: contract.path(call.operationId, call.pathParams),
      query: new URLSearchParams(call.query ?? []).toString(),
      headers: await requestHeaders(call),
      ...(call.body !== undefined ? { body: call.body } : {}),
    };
    const sent = await fetch(`${system.baseUrl}${request.path}${request.query ? `?${request.query}` : ''}`, {
      method: request.method.toUpperCase(),
      headers: request.headers,
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    });
    const response = await readResponse(sent);
    // The order's current ETag for the next write, whatever else the step finds.
    if (response.status < 300 && response.headers['etag'] && call.pathParams?.['orderId'] === fixture.orderId) fixture.etag = response.headers['etag'];
    if (response.status >= 500) fivexx.push(`${call.operationId} ${response.status}`);
    const violations = [...contract.checkRequest(call.operationId, request), ...contract.checkResponse(call.operationId, response)];
    return { response, unexplained: explainViolations(contract, violations, request, response.body, seen) };
  }

  function expectConforms(result: { unexplained: Violation[] }): void {
    if (result.unexplained.length > 0) throw new Error(`departures from the published document that are not documented extensions:\n${describeViolations(result.unexplained)}`);
  }

  /** Runs a documented operation: it must answer `status` and conform. */
  async function expectOperation(call: Call, status: number): Promise<ContractResponse> {
    const result = await exchange(call);
    if (result.response.status !== status) {
      throw new Error(`${call.operationId} answered ${result.response.status}, expected ${status}: ${JSON.stringify(result.response.body)}`);
    }
    expectConforms(result);
    return result.response;
  }

  // ---- Fixtures -------------------------------------------------------------------------------------

  async function createCustomer(): Promise<void> {
    const response = await fetch(`${system.baseUrl}/v1/customer`, {
      method: 'POST',
      headers: { ...(await auth.headers({ company: COMPANY })), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nordic Contract Foods AB', currencyId: 'SEK' }),
    });
    expect(response.status).toBe(201);
    fixture.customerNumber = ((await response.json()) as { number: string }).number;
  }

  /**
   * The inventory items order lines use (order lines must name an existing item), created through the
   * extension the document lacks (`PUT /api/v3/Inventory/{inventoryId}`), with stock in a location and
   * an attribute so the inventory list's `expand=Location,Attribute` has something to show.
   */
  async function createInventoryItems(): Promise<void> {
    const items = ['CONTRACT-ITEM-1', 'CONTRACT-ITEM-2', 'CONTRACT-ITEM-3'];
    const headers = { ...(await auth.headers({ company: COMPANY })), 'content-type': 'application/json' };
    for (const [i, inventoryId] of items.entries()) {
      const response = await fetch(`${system.baseUrl}/api/v3/Inventory/${inventoryId}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({
          description: `Contract item ${i + 1}`,
          baseUnit: 'PCS',
          attributes: { WEBSHOP: '1' },
          availability: [{ warehouseId: 'MAIN', quantityOnHand: 100 + i, locations: [{ locationId: 'MAIN-A1', quantityOnHand: 100 + i }] }],
          // The base price the price rules give a line without unitPrice (SEK 24.90, 25.90, 26.90).
          prices: [{ currencyId: 'SEK', unitPrice: `${24 + i}.90` }],
        }),
      });
      expect(response.status).toBe(201);
    }
    fixture.items = items;
  }

  const today = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()));
  const inDays = (days: number) => new Date(today.getTime() + days * 86_400_000).toISOString();

  /** NewSalesOrderCommand with realistic values (validated against the document with every request). */
  function newSalesOrder(): unknown {
    const [first, second] = need('items');
    const address = { line1: 'Storgatan 12', line2: null, line3: null, postalCode: '111 22', city: 'Stockholm', countryId: 'SE', stateId: null };
    return {
      type: 'SO',
      customer: { id: need('customerNumber'), order: 'PO-2026-118', refNo: 'REF-77' },
      date: today.toISOString(),
      requestOn: inDays(7),
      cancelBy: inDays(30),
      description: 'Spring assortment',
      note: 'Deliver to the loading dock',
      currencyId: 'SEK',
      status: 'Open',
      billing: { address, contact: { name: 'Anna Berg', attention: 'Accounts payable', email: 'anna.berg@example.com', phone1: '+46 8 123 45 67' } },
      shipping: { address: { ...address, line1: 'Hamnvägen 3' }, contact: { name: 'Erik Lund', attention: null, email: 'erik.lund@example.com', phone1: null } },
      orderLines: [
        { inventoryId: first, quantity: 4, unitPrice: 101.25, discountPercent: 10, description: 'Oat drink 1 l', unitOfMeasure: 'PCS', warehouseId: 'MAIN', requestDate: inDays(7), note: null },
        { inventoryId: second, quantity: 2.5, unitPrice: 39.9, description: 'Rye bread', note: 'Sliced' },
      ],
    };
  }

  const orderParams = () => ({ type: need('type'), orderId: need('orderId') });
  const etagOf = (response: ContractResponse) => {
    const etag = response.headers['etag'];
    if (!etag) throw new Error('the response has no ETag');
    fixture.etag = etag;
    return etag;
  };

  /**
   * POST the order, right after its customer was created (sales orders asks customers-v1 for a
   * customer its event has not brought yet). The order is the fixture of the later steps even when
   * its answer does not conform (that fails this step only).
   */
  async function createOrder(): Promise<{ response: ContractResponse; unexplained: Violation[] }> {
    const result = await exchange({ operationId: 'SalesOrders_CreateNewItem_', body: newSalesOrder() });
    expect(result.response.status).toBe(201);
    const order = result.response.body as { type: string; orderId: string; lines: Array<{ lineId: number }> };
    Object.assign(fixture, { type: order.type, orderId: order.orderId, lineIds: order.lines.map((line) => line.lineId) });
    etagOf(result.response);
    return result;
  }

  /** Every value of the document's SalesOrderExpansions but `None` and `All`: each part on its own name. */
  function everyExpansion(): string[] {
    const schemas = contract.api.definition.components?.schemas as Record<string, { enum?: string[] }>;
    return (schemas['SalesOrderExpansions']?.enum ?? []).filter((value) => value !== 'None' && value !== 'All');
  }

  beforeAll(async () => {
    await contract.init();
    testSystem = await startTestSystem('e2e_contract', { auth });
    system = testSystem.system;
    await createCustomer();
    await createInventoryItems();
  }, 180_000);

  afterAll(async () => {
    await testSystem?.stop();
  });

  return { contract, seen, called, fivexx, need, exchange, expectConforms, expectOperation, today, inDays, newSalesOrder, orderParams, etagOf, createOrder, everyExpansion };
}
