import { eventMessageKey } from '@erp/contracts';

/**
 * Topic names as a deployment sees them. A prefix (e.g. `staging.`) lets several environments,
 * or parallel test runs, share one cluster; the contracts always speak unprefixed names.
 */
export function prefixedTopic(prefix: string, topic: string): string {
  return `${prefix}${topic}`;
}

export function unprefixedTopic(prefix: string, topic: string): string {
  return prefix && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic;
}

/**
 * Where a consumer parks a message it cannot handle: one dead-letter topic per source topic,
 * shared by every consumer group of it (the `x-consumer-group` header says whose failure it
 * was). One topic per source keeps what operators watch small; replaying a parked message to the
 * source topic is safe for the groups that already handled it, because consumers deduplicate on
 * the event id.
 */
export function deadLetterTopicOf(topic: string): string {
  return `${topic}.dlq`;
}

/**
 * The Kafka message key of an event: per-aggregate order needs one key per aggregate. The rule is
 * the contract's (`eventMessageKey` of @erp/contracts), which the AsyncAPI document describes.
 */
export const messageKeyOf = eventMessageKey;
