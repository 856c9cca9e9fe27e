import { ref, type Schemas } from '@erp/openapi';
import { PUBLISHER_NAMES } from '../publishers/publishers';

const dateTime = { type: 'string', format: 'date-time' };
const page = (item: string) => ({
  type: 'object',
  required: ['value', 'totalCount', 'nextPage'],
  properties: {
    value: { type: 'array', items: ref(item) },
    totalCount: { type: 'integer' },
    nextPage: { type: ['string', 'null'], description: 'Path and query of the next page; null on the last' },
  },
});

export const WEBHOOK_SCHEMAS: Schemas = {
  Publishers: {
    type: 'object',
    required: ['value'],
    properties: {
      value: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'description', 'eventTypes'],
          properties: {
            name: { type: 'string', enum: [...PUBLISHER_NAMES] },
            description: { type: 'string' },
            eventTypes: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  name: { type: 'string', examples: ['SALESORDER_UPDATED'] },
                  description: { type: 'string' },
                  schema: { type: 'object', description: 'JSON Schema of the delivery body' },
                },
              },
            },
          },
        },
      },
    },
  },
  Subscription: {
    type: 'object',
    required: ['id', 'publisher', 'eventTypes', 'url', 'enabled', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      publisher: { type: 'string', enum: [...PUBLISHER_NAMES] },
      eventTypes: { type: 'array', items: { type: 'string' } },
      url: { type: 'string', format: 'uri' },
      description: { type: ['string', 'null'] },
      enabled: { type: 'boolean' },
      disabledReason: { type: ['string', 'null'] },
      previousSecretExpiresAt: { type: ['string', 'null'], format: 'date-time', description: 'While a rotation overlaps: when the previous secret stops signing' },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  SubscriptionCreated: {
    allOf: [
      ref('Subscription'),
      { type: 'object', required: ['secret'], properties: { secret: { type: 'string', description: '`whsec_...`, shown only here', examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] } } },
    ],
  },
  SubscriptionPage: page('Subscription'),
  DeliveryAttempt: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      eventId: { type: 'string' },
      eventType: { type: 'string' },
      webhookId: { type: 'string', description: 'The `webhook-id` header: stable across retries of one message' },
      attempt: { type: 'integer', minimum: 1 },
      attemptedAt: dateTime,
      status: { type: 'string', enum: ['delivered', 'failed'] },
      responseCode: { type: ['integer', 'null'] },
      latencyMs: { type: 'integer' },
      error: { type: ['string', 'null'] },
    },
  },
  DeliveryAttemptPage: page('DeliveryAttempt'),
  SubscriptionCreate: {
    type: 'object',
    required: ['publisher', 'eventTypes', 'url'],
    properties: {
      publisher: { type: 'string', enum: [...PUBLISHER_NAMES] },
      eventTypes: { type: 'array', minItems: 1, items: { type: 'string' } },
      url: { type: 'string', format: 'uri', description: 'http(s); private, loopback and link-local targets are refused unless allowed by configuration' },
      description: { type: ['string', 'null'] },
    },
  },
  SubscriptionUpdate: {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri' },
      eventTypes: { type: 'array', minItems: 1, items: { type: 'string' } },
      enabled: { type: 'boolean' },
      description: { type: ['string', 'null'] },
    },
  },
  SecretRotated: {
    type: 'object',
    required: ['id', 'secret', 'previousSecretExpiresAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      secret: { type: 'string', description: 'The new secret; the old one also signs for 24 h' },
      previousSecretExpiresAt: dateTime,
    },
  },
  Replay: { type: 'object', required: ['since'], properties: { since: dateTime, until: dateTime } },
  ReplayQueued: { type: 'object', required: ['queued', 'since', 'until'], properties: { queued: { type: 'integer' }, since: dateTime, until: dateTime } },
};
