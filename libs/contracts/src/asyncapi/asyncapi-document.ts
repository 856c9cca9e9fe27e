import { eventEnvelopeSchema, type JsonSchema } from '../json-schema/event-data-schema';
import { EVENT_CONTENT_TYPE, EVENT_HEADERS, EVENT_MESSAGE_KEY_PATTERN } from '../kafka-message/kafka-message';
import { EVENT_CONSUMERS, type EventConsumer, TOPIC_PRODUCERS } from '../participants/event-participants';
import { EVENT_REGISTRY, EVENT_TYPES, type EventType, eventTypesOf } from '../registry/event-registry';
import { SAMPLE_EVENT_DATA } from '../testing/sample-event-data';
import { TOPICS, type TopicName } from '../topics/topics';

/** The Kafka bindings' version this document writes (AsyncAPI's bindings repository, kafka 0.5.0). */
const KAFKA_BINDING_VERSION = '0.5.0';

/** The channel id of a topic: its key in `TOPICS` (`customers`, `salesOrders`...). */
function channelIdOf(topic: TopicName): string {
  return (Object.keys(TOPICS) as (keyof typeof TOPICS)[]).find((key) => TOPICS[key] === topic) as string;
}

const HEADERS_SCHEMA: JsonSchema = {
  type: 'object',
  required: Object.values(EVENT_HEADERS)
    .filter((header) => header.always)
    .map((header) => header.name),
  properties: Object.fromEntries(
    Object.values(EVENT_HEADERS).map((header) => [
      header.name,
      { type: 'string', description: header.description, ...('pattern' in header ? { pattern: header.pattern } : {}) },
    ]),
  ),
};

const KEY_SCHEMA: JsonSchema = {
  type: 'string',
  pattern: EVENT_MESSAGE_KEY_PATTERN,
  description: "`<companyId>:<subject>` of the envelope: one key per aggregate, so one aggregate's events stay in order on one partition.",
};

/** The subject of each topic's sample data (`SAMPLE_EVENT_DATA`), for the messages' examples. */
const SAMPLE_SUBJECTS: { readonly [T in TopicName]: string } = {
  [TOPICS.customers]: '10001',
  [TOPICS.supplierInvoices]: '000123',
  [TOPICS.attachments]: 'supplierInvoice/000123',
  [TOPICS.salesOrders]: 'SO/000123',
};

function message(type: EventType): JsonSchema {
  const topic = EVENT_REGISTRY[type].TOPIC;
  const subject = SAMPLE_SUBJECTS[topic];
  const example = {
    id: '0b7d3c1e-5a4f-4e2b-9c8d-7f6e5d4c3b2a',
    type,
    source: TOPIC_PRODUCERS[topic],
    companyId: '1000001',
    subject,
    time: '2026-01-31T09:15:00.123Z',
    data: SAMPLE_EVENT_DATA[type],
  };
  return {
    name: type,
    title: type,
    summary: `${type} on ${topic}, sent by ${TOPIC_PRODUCERS[topic]}.`,
    contentType: EVENT_CONTENT_TYPE,
    headers: HEADERS_SCHEMA,
    payload: eventEnvelopeSchema(type),
    correlationId: { description: 'The event id, also in the envelope.', location: `$message.header#/${EVENT_HEADERS.eventId.name}` },
    bindings: { kafka: { key: KEY_SCHEMA, bindingVersion: KAFKA_BINDING_VERSION } },
    examples: [
      {
        name: 'sample',
        headers: { [EVENT_HEADERS.eventId.name]: example.id, [EVENT_HEADERS.eventType.name]: type, [EVENT_HEADERS.contentType.name]: EVENT_CONTENT_TYPE },
        payload: example,
      },
    ],
  };
}

const messageRef = (type: EventType) => ({ $ref: `#/components/messages/${type}` });
const channelMessageRef = (topic: TopicName, type: EventType) => ({ $ref: `#/channels/${channelIdOf(topic)}/messages/${type}` });

function channel(topic: TopicName): JsonSchema {
  const major = /\.v(\d+)$/.exec(topic)?.[1];
  return {
    address: topic,
    title: topic,
    description:
      `Events of ${TOPIC_PRODUCERS[topic]}, major version ${major}: a breaking change to any of them is a new topic (\`.v${Number(major) + 1}\`), ` +
      'served beside this one until its consumers moved. Deployments may put `KAFKA_TOPIC_PREFIX` in front of the address.',
    messages: Object.fromEntries(eventTypesOf(topic).map((type) => [type, messageRef(type)])),
    bindings: { kafka: { topic, bindingVersion: KAFKA_BINDING_VERSION } },
  };
}

function sendOperation(topic: TopicName): [string, JsonSchema] {
  const service = TOPIC_PRODUCERS[topic];
  return [
    `${service}.send.${channelIdOf(topic)}`,
    {
      action: 'send',
      title: `${service} sends ${topic}`,
      summary: 'Written to the outbox in the change’s transaction and sent by the relay after the commit (at least once).',
      channel: { $ref: `#/channels/${channelIdOf(topic)}` },
      messages: eventTypesOf(topic).map((type) => channelMessageRef(topic, type)),
      'x-service': service,
    },
  ];
}

function receiveOperation(consumer: EventConsumer): [string, JsonSchema] {
  return [
    `${consumer.service}.receive.${channelIdOf(consumer.topic)}`,
    {
      action: 'receive',
      title: `${consumer.service} receives ${consumer.topic}`,
      summary: consumer.description,
      description: `Consumer group \`${consumer.groupId}\`; each event handled once (deduplicated on its id), retried, then dead-lettered to \`${consumer.topic}.dlq\`.`,
      channel: { $ref: `#/channels/${channelIdOf(consumer.topic)}` },
      messages: consumer.eventTypes.map((type) => channelMessageRef(consumer.topic, type)),
      bindings: { kafka: { groupId: { type: 'string', enum: [consumer.groupId] }, bindingVersion: KAFKA_BINDING_VERSION } },
      'x-service': consumer.service,
    },
  ];
}

/**
 * The AsyncAPI 3.0 document of every event, from this lib alone: topics (channels), the envelope
 * and payload classes (message payloads, via their JSON Schemas), the message key and headers,
 * and who sends and receives each topic (operations). `libs/contracts/asyncapi.json` is this,
 * committed; the gateway serves it with its reference page.
 */
export function asyncApiDocument(): JsonSchema {
  const topics = Object.values(TOPICS);
  return {
    asyncapi: '3.0.0',
    id: 'urn:erp:business-api:events',
    info: {
      title: 'ERP business events',
      version: '1',
      description:
        'The domain events the ERP services publish on Kafka. Every message value is the event envelope as JSON; the key is ' +
        '`<companyId>:<subject>`. Producers write events to an outbox in the change’s transaction, so an event exists exactly when ' +
        'its change does; delivery is at least once, so consumers deduplicate on `id`. Within a topic (a major version) fields are ' +
        'only added: read tolerantly and ignore fields you do not know.',
      license: { name: 'Proprietary' },
    },
    defaultContentType: EVENT_CONTENT_TYPE,
    servers: {
      kafka: {
        host: 'kafka:9092',
        protocol: 'kafka',
        description: 'The cluster of the deployment (`KAFKA_BROKERS`); topic names may carry the `KAFKA_TOPIC_PREFIX` of the environment.',
      },
    },
    channels: Object.fromEntries(topics.map((topic) => [channelIdOf(topic), channel(topic)])),
    operations: uniqueEntries([...topics.map(sendOperation), ...EVENT_CONSUMERS.map(receiveOperation)]),
    components: { messages: Object.fromEntries(EVENT_TYPES.map((type) => [type, message(type)])) },
  };
}

/** Operation ids are `<service>.<action>.<channel>`: a second one under an id would hide the first. */
function uniqueEntries(entries: [string, JsonSchema][]): JsonSchema {
  const ids = entries.map(([id]) => id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) throw new Error(`AsyncAPI operation ids declared twice: ${twice.join(', ')} (one handler per service and topic)`);
  return Object.fromEntries(entries);
}
