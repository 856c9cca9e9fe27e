import { describeBreakingChanges } from './breaking-change';
import { breakingChanges } from './contract-compat';
import { recordedContracts, type ReleaseContracts } from './recorded-contracts';

// Each case starts from the contracts recorded for 1.0.0 and changes one thing the way a change of
// the code would change the generated document; the breaking ones must be caught and named, their
// additive counterparts must pass. (The working tree against the last release: contracts-vs-release.)
const RELEASED = recordedContracts('1.0.0');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const copy = (): Json => JSON.parse(JSON.stringify(RELEASED)) as Json;
const changesAfter = (change: (contracts: Json) => void): string[] => {
  const after = copy();
  change(after);
  return describeBreakingChanges(breakingChanges(RELEASED, after as ReleaseContracts));
};

const SALES_ORDER_TYPES = ['SALESORDER_CREATED', 'SALESORDER_UPDATED', 'SALESORDER_DELETED'];
const salesOrderData = (c: Json, type: string): Json => c.asyncapi.components.messages[type].payload.properties.data;
const salesOrderWebhookData = (c: Json, type: string): Json =>
  c.webhooks.value.flatMap((p: Json) => p.eventTypes).find((t: Json) => t.type === type).schema.properties.data;
const schemas = (c: Json): Json => c.openapi.components.schemas;

/** What removing `customerId` from SalesOrderEventData does to the generated documents: the events' and the webhooks' schemas. */
function removeCustomerIdFromSalesOrderEvents(c: Json): void {
  for (const type of SALES_ORDER_TYPES) {
    for (const data of [salesOrderData(c, type), salesOrderWebhookData(c, type)]) {
      delete data.properties.customerId;
      data.required = data.required.filter((field: string) => field !== 'customerId');
    }
  }
}

/** Every place the customer status enum appears in the HTTP document, as CUSTOMER_STATUSES feeds them. */
function mapCustomerStatusEnums(c: Json, map: (values: string[]) => string[]): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const object = node as Json;
    if (Array.isArray(object.enum) && object.enum.includes('CreditHold')) object.enum = map(object.enum);
    Object.values(object).forEach(visit);
  };
  visit(c.openapi);
}

describe('compatibility with the last release: breaking changes are caught and named, additive ones pass', () => {
  it('finds nothing between a release and itself', () => {
    expect(breakingChanges(RELEASED, copy() as ReleaseContracts)).toEqual([]);
  });

  it('catches a field removed from SalesOrderEventData, in the events and in the webhooks', () => {
    const changes = changesAfter(removeCustomerIdFromSalesOrderEvents);
    for (const type of SALES_ORDER_TYPES) {
      expect(changes).toContain(`events: ${type}: payload: [Removed] property \`customerId\` from \`data\``);
      expect(changes).toContainEqual(expect.stringMatching(new RegExp(`^webhooks: .* ${type}: \\[Removed\\] property \`customerId\``)));
    }
  });

  it('passes a new optional field of SalesOrderEventData', () => {
    expect(changesAfter((c) => SALES_ORDER_TYPES.forEach((type) => (salesOrderData(c, type).properties.note = { type: 'string' })))).toEqual([]);
  });

  it('passes the way out of a removed field: a new topic major beside the old one, still served', () => {
    const changes = changesAfter((c) => {
      const next = JSON.parse(JSON.stringify(c.asyncapi.channels.salesOrders)) as Json;
      next.address = 'erp.sales-orders.sales-order.v4';
      c.asyncapi.channels.salesOrdersV4 = next;
      for (const type of SALES_ORDER_TYPES) {
        const message = JSON.parse(JSON.stringify(c.asyncapi.components.messages[type])) as Json;
        delete message.payload.properties.data.properties.customerId;
        c.asyncapi.components.messages[`${type}_V4`] = message;
        next.messages[type] = { $ref: `#/components/messages/${type}_V4` };
      }
    });
    expect(changes).toEqual([]);
  });

  it('catches an optional request field of POST /api/v3/SalesOrders made required', () => {
    const changes = changesAfter((c) => schemas(c).SalesOrderCreate.required.push('description'));
    expect(changes).toContainEqual(expect.stringMatching(/^http: POST \/api\/v3\/SalesOrders: .*required.*`description`/));
  });

  it('passes a new optional request field of POST /api/v3/SalesOrders', () => {
    expect(changesAfter((c) => (schemas(c).SalesOrderCreate.properties.externalNote = { type: 'string' }))).toEqual([]);
  });

  it('passes the way out of a new required field: a new version path, the old one still served', () => {
    const changes = changesAfter((c) => {
      const v4 = JSON.parse(JSON.stringify(c.openapi.paths['/api/v3/SalesOrders'])) as Json;
      v4.post.requestBody.content['application/json'].schema = { ...schemas(c).SalesOrderCreate, required: [...schemas(c).SalesOrderCreate.required, 'description'] };
      c.openapi.paths['/api/v4/SalesOrders'] = v4;
    });
    expect(changes).toEqual([]);
  });

  it('catches a value removed from the customer status enum', () => {
    const changes = changesAfter((c) => mapCustomerStatusEnums(c, (values) => values.filter((value) => value !== 'OneTime')));
    expect(changes).toContainEqual(expect.stringMatching(/^http: POST \/v1\/customer: .*possible values of `status`/));
    expect(changes).toContainEqual(expect.stringMatching(/^http: GET \/v1\/customer: .*`status`/));
  });

  it('passes a value added to the customer status enum where clients send it (request bodies, the filter)', () => {
    const widenRequests = (c: Json) => {
      for (const name of ['CustomerCreate', 'CustomerUpdate']) mapCustomerStatusEnums({ openapi: schemas(c)[name] }, (values) => [...values, 'Prospect']);
      for (const parameter of c.openapi.paths['/v1/customer'].get.parameters) {
        if (parameter.name === 'status') mapCustomerStatusEnums({ openapi: parameter }, (values) => [...values, 'Prospect']);
      }
    };
    expect(changesAfter(widenRequests)).toEqual([]);
  });

  // Our decision (docs/releases.md): a value added to an enum a response carries is breaking, as
  // api-smart-diff says, since a client generated with closed enums fails to read it.
  it('catches a value added to the customer status enum of a response', () => {
    const changes = changesAfter((c) => mapCustomerStatusEnums(c, (values) => [...values, 'Prospect']));
    expect(changes).toContainEqual(expect.stringMatching(/^http: GET \/v1\/customer: .*possible values of `\[\]\.status` in Response 200/));
  });

  it('catches a changed response status (201 -> 200 on POST /api/v3/SalesOrders)', () => {
    const changes = changesAfter((c) => {
      const responses = c.openapi.paths['/api/v3/SalesOrders'].post.responses;
      responses['200'] = responses['201'];
      delete responses['201'];
    });
    expect(changes).toContain('http: POST /api/v3/SalesOrders: [Removed] Response 201');
  });

  it('passes a new response status', () => {
    expect(changesAfter((c) => (c.openapi.paths['/api/v3/SalesOrders'].post.responses['409'] = { description: 'Conflict' }))).toEqual([]);
  });

  it('catches a removed event type', () => {
    const changes = changesAfter((c) => {
      delete c.asyncapi.channels.salesOrders.messages.SALESORDER_DELETED;
      delete c.asyncapi.components.messages.SALESORDER_DELETED;
      for (const operation of Object.values<Json>(c.asyncapi.operations)) {
        operation.messages = operation.messages.filter((m: Json) => !String(m.$ref).endsWith('/SALESORDER_DELETED'));
      }
    });
    expect(changes).toContain('events: erp.sales-orders.sales-order.v3: event type SALESORDER_DELETED removed');
  });

  it('passes a new event type on a topic', () => {
    const changes = changesAfter((c) => {
      c.asyncapi.components.messages.SALESORDER_CANCELLED = { ...c.asyncapi.components.messages.SALESORDER_UPDATED, name: 'SALESORDER_CANCELLED' };
      c.asyncapi.channels.salesOrders.messages.SALESORDER_CANCELLED = { $ref: '#/components/messages/SALESORDER_CANCELLED' };
    });
    expect(changes).toEqual([]);
  });

  it('catches a changed message key, a removed field type change and a removed operation', () => {
    const changes = changesAfter((c) => {
      c.asyncapi.components.messages.CUSTOMER_UPDATED.bindings.kafka.key.pattern = '^.+$';
      salesOrderData(c, 'SALESORDER_UPDATED').properties.version = { type: 'integer' };
      delete c.openapi.paths['/api/v3/CurrencyRates'].get;
      schemas(c).Customer.properties.name = { type: 'integer' };
    });
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^events: CUSTOMER_UPDATED: message key changed/),
        expect.stringMatching(/^events: SALESORDER_UPDATED: payload: \[Replaced\] type definition of `data.version`/),
        'http: GET /api/v3/CurrencyRates: [Removed] operation GET /api/v3/CurrencyRates',
        expect.stringMatching(/^http: GET \/v1\/customer\/\{customerNumber\}: .*type/),
      ]),
    );
  });
});

