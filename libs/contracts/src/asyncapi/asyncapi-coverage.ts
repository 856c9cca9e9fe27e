import { EVENT_REGISTRY, EVENT_TYPES } from '../registry/event-registry';
import { TOPICS } from '../topics/topics';

/** The parts of an AsyncAPI document the coverage check reads. */
export type AsyncApiDoc = {
  channels: Record<string, { address: string; messages: Record<string, unknown> }>;
  operations: Record<string, { action: string; messages: { $ref: string }[]; 'x-service': string; title?: string }>;
  components: { messages: Record<string, { payload: { properties: Record<string, { const?: string }> }; headers: { required: string[] } }> };
};

/**
 * What a document lacks of the registry, one line per missing topic, type or sender: the check
 * that fails when an event type is added to EVENT_REGISTRY and the committed document is not
 * regenerated (or a hand-made one leaves it out).
 */
export function registryCoverageProblems(doc: AsyncApiDoc): string[] {
  const problems: string[] = [];
  const addresses = Object.values(doc.channels).map((channel) => channel.address);
  for (const topic of Object.values(TOPICS)) if (!addresses.includes(topic)) problems.push(`topic ${topic} has no channel`);
  for (const type of EVENT_TYPES) {
    const channel = Object.values(doc.channels).find((c) => c.address === EVENT_REGISTRY[type].TOPIC);
    if (!doc.components.messages[type]) problems.push(`event type ${type} has no message`);
    else if (!channel?.messages[type]) problems.push(`event type ${type} is not on its topic's channel`);
    const sent = Object.values(doc.operations).some((op) => op.action === 'send' && op.messages.some((m) => m.$ref.endsWith(`/messages/${type}`)));
    if (!sent) problems.push(`event type ${type} has no send operation`);
  }
  return problems;
}
