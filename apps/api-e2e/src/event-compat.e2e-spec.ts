import { randomUUID } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { EVENT_CONSUMERS, EVENT_TYPES, type EventType, TOPICS } from '@erp/contracts';
import { demoSupplierInvoices, type RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { type EventsDoc, previousRelease, recordedContracts } from '@erp/release';
import { TestAuth, testKafkaBrokers, testTopicPrefix, TopicReader, waitFor, waitUntil } from '@erp/testing';
import { putInventoryItems } from './support/inventory';

const A = '1000001';
const auth = new TestAuth();
const prefix = testTopicPrefix('e2e_compat');
const released = previousRelease();
type Message = { payload: object; bindings: { kafka: { key: { pattern: string } } }; headers: { required: string[] }; examples: { payload: Record<string, unknown> }[] };
const releasedMessages = (recordedContracts(released.version).asyncapi as EventsDoc & { components: { messages: Record<string, Message> } }).components.messages;
const TYPES_OF_RELEASE = Object.keys(releasedMessages) as EventType[];

let testSystem: TestSystem | undefined;
let system: RunningSystem;
let reader: TopicReader;

const json = async (company = A) => ({ ...(await auth.headers({ company })), 'content-type': 'application/json' });
const v3 = async () => ({ ...(await auth.headers({ company: A, applicationType: null })), 'content-type': 'application/json' });
async function call(path: string, init: RequestInit, expected: number): Promise<Response> {
  for (let deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const response = await fetch(`${system.baseUrl}${path}`, init);
    // A record another service owns may not be known there yet for a moment (docs/cross-service-reads.md).
    if (response.status === expected || Date.now() > deadline || ![400, 404].includes(response.status)) {
      expect({ path, status: response.status }).toEqual({ path, status: expected });
      return response;
    }
  }
}

/** Every event type, made by the current producers through the gateway: what a consumer of the last release will read. */
async function produceEveryEventType(): Promise<void> {
  const customer = await call('/v1/customer', { method: 'POST', headers: await json(), body: JSON.stringify({ name: 'Compat AS', currencyId: 'NOK' }) }, 201);
  const { number } = (await customer.json()) as { number: string };
  await call(`/v1/customer/${number}`, { method: 'PUT', headers: await json(), body: JSON.stringify({ name: 'Compat Renamed AS' }) }, 204);
  const invoice = await call('/v1/supplierInvoice', { method: 'POST', headers: await json(), body: JSON.stringify(demoSupplierInvoices(1)[0]) }, 201);
  const { referenceNumber } = (await invoice.json()) as { referenceNumber: string };
  await call(`/v1/supplierInvoice/${referenceNumber}`, { method: 'PUT', headers: await json(), body: JSON.stringify({ description: 'Changed' }) }, 204);
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.4 compat'], { type: 'application/pdf' }), 'compat.pdf');
  const { 'content-type': _json, ...uploadHeaders } = await json();
  await call(`/v1/supplierInvoice/${referenceNumber}/Attachment`, { method: 'POST', headers: uploadHeaders, body: form }, 201);
  await putInventoryItems(system.baseUrl, await v3(), ['COMPAT-1']);
  const order = await call('/api/v3/SalesOrders', { method: 'POST', headers: await v3(), body: JSON.stringify({ type: 'SO', customer: { id: number }, orderLines: [{ inventoryId: 'COMPAT-1', quantity: 2, unitPrice: '10.00' }] }) }, 201);
  const location = order.headers.get('location') as string;
  const patched = await call(location, { method: 'PATCH', headers: { ...(await v3()), 'if-match': order.headers.get('etag') as string }, body: JSON.stringify({ status: 'Hold' }) }, 202);
  const { 'content-type': _none, ...withoutBody } = await v3();
  await call(location, { method: 'DELETE', headers: { ...withoutBody, 'if-match': patched.headers.get('etag') as string } }, 202);
}

/**
 * A consumer is never broken by a producer release it has not seen, and the other way round
 * (Confluent's FULL compatibility, here between the last release and the working tree):
 * - consumers of the last release (its payload classes, as its recorded AsyncAPI document has
 *   their schemas) read every event type the current producers emit;
 * - the current consumers (their real handlers, through the Kafka transport) read every event the
 *   last release's producers emitted (the examples its document recorded).
 */
describe(`events across releases: the working tree and ${released.version}`, () => {
  beforeAll(async () => {
    testSystem = await startTestSystem('e2e_compat', { env: { KAFKA_TOPIC_PREFIX: prefix }, auth });
    system = testSystem.system;
    reader = await TopicReader.start(Object.values(TOPICS).map((topic) => `${prefix}${topic}`));
  }, 180_000);

  afterAll(async () => {
    await reader?.stop();
    await testSystem?.stop();
  });

  it(`has the last release's every event type still registered (${TYPES_OF_RELEASE.length})`, () => {
    expect(EVENT_TYPES).toEqual(expect.arrayContaining(TYPES_OF_RELEASE));
  });

  it(`lets ${released.version}'s consumers read what the current producers send, for every event type`, async () => {
    await produceEveryEventType();
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    for (const type of TYPES_OF_RELEASE) {
      const message = await waitFor(() => reader.messages.find((m) => m.headers['event-type'] === type), `a ${type} from the current producer`);
      const schema = releasedMessages[type]!;
      const validate = ajv.compile(schema.payload);
      const valid = validate(JSON.parse(message.value ?? 'null'));
      expect({ type, problems: valid ? [] : ajv.errorsText(validate.errors) }).toEqual({ type, problems: [] });
      expect({ type, key: message.key }).toEqual({ type, key: expect.stringMatching(new RegExp(schema.bindings.kafka.key.pattern)) });
      for (const header of schema.headers.required) expect({ type, header, sent: header in message.headers }).toEqual({ type, header, sent: true });
    }
  }, 180_000);

  it(`lets the current consumers handle what ${released.version}'s producers sent, every type in every consumer group`, async () => {
    const kafka = new Kafka({ clientId: 'e2e-compat', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    const sent = new Map<string, EventType>();
    try {
      for (const type of TYPES_OF_RELEASE) {
        const example: Record<string, unknown> & { id: string } = { ...releasedMessages[type]!.examples[0]!.payload, id: randomUUID(), companyId: A, time: new Date().toISOString() };
        sent.set(example.id, type);
        const topic = `${prefix}${releasedTopicOf(type)}`;
        await producer.send({
          topic,
          acks: -1,
          messages: [{ key: `${A}:${String(example['subject'])}`, value: JSON.stringify(example), headers: { 'event-id': example.id, 'event-type': type, 'content-type': 'application/json' } }],
        });
      }
    } finally {
      await producer.disconnect();
    }
    for (const consumer of EVENT_CONSUMERS) {
      const client = new Client({ connectionString: system.databaseUrls[consumer.service] });
      await client.connect();
      try {
        for (const [id, type] of sent) {
          if (!consumer.eventTypes.includes(type)) continue;
          // A row exists only when the handler's transaction committed: a dead-lettered event has none.
          await waitUntil(
            `${consumer.groupId} handled the ${released.version} ${type}`,
            async () => (await client.query(`SELECT 1 FROM processed_events WHERE consumer_group LIKE $1 AND event_id = $2`, [`%${consumer.groupId}`, id])).rowCount === 1,
            60_000,
          );
        }
      } finally {
        await client.end();
      }
    }
  }, 300_000);
});

/** The topic a type of the last release was sent on (its recorded channel). */
function releasedTopicOf(type: EventType): string {
  const channels = recordedContracts(released.version).asyncapi.channels;
  return Object.values(channels).find((channel) => type in channel.messages)?.address as string;
}
