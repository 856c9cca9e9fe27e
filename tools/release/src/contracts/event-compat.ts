import { diff } from '@asyncapi/diff';
import { fullyIncompatibleSchemaChanges } from './schema-changes';

/** The parts of an AsyncAPI 3 document (as `asyncApiDocument()` of @erp/contracts writes it) read here. */
export interface EventsDoc {
  channels: Record<string, { address: string; messages: Record<string, unknown> }>;
  operations: Record<string, { action: string }>;
  components: { messages: Record<string, EventMessage> };
}

interface EventMessage {
  payload: unknown;
  headers?: unknown;
  bindings?: { kafka?: { key?: Record<string, unknown> } };
}

type Change = { where: string; what: string };

/**
 * The breaking changes between two AsyncAPI documents of the events, for consumers of either
 * release (an old consumer reads the new producer's events and the other way round).
 *
 * @asyncapi/diff classifies the document's structure: a removed channel (topic), a message
 * removed from a channel (an event type), a changed address, a producer's removed send
 * operation. Receive operations are left out: a consumer that stops reading breaks nobody.
 * It does not look into schemas (every change in a payload is "unclassified" to it), so the
 * payload and header schemas go through our FULL rule (`fullyIncompatibleSchemaChanges`), and a
 * message key is compared as a whole (a changed key reorders one aggregate's events).
 *
 * The way out is a new topic major (a new channel, `...v4`) beside the old one, which stays as it
 * was: nothing here reports the new one.
 */
export function eventBreakingChanges(before: EventsDoc, after: EventsDoc): Change[] {
  return [...structuralChanges(before, after), ...messageChanges(before, after)];
}

function structuralChanges(before: EventsDoc, after: EventsDoc): Change[] {
  const changes = diff(before, after, { outputType: 'json' }).breaking();
  if (!Array.isArray(changes)) return [];
  return changes
    .filter((change) => change.path.startsWith('/channels/') || (change.path.startsWith('/operations/') && /\.send\./.test(change.path)))
    .map((change) => named(before, change.action, change.path));
}

function named(before: EventsDoc, action: string, path: string): Change {
  const [, section, id, part, name] = path.split('/');
  const address = section === 'channels' && id ? (before.channels[id]?.address ?? id) : (id ?? path);
  if (section === 'channels' && part === 'messages' && name && action === 'remove') return { where: address, what: `event type ${name} removed` };
  if (section === 'channels' && !part && action === 'remove') return { where: address, what: 'topic removed' };
  return { where: address, what: `${action} ${path}` };
}

function messageChanges(before: EventsDoc, after: EventsDoc): Change[] {
  const changes: Change[] = [];
  for (const [type, old] of Object.entries(before.components.messages)) {
    const now = after.components.messages[type];
    if (!now) continue; // its removal from the channel is named above
    for (const what of fullyIncompatibleSchemaChanges(old.payload, now.payload)) changes.push({ where: type, what: `payload: ${what}` });
    for (const what of fullyIncompatibleSchemaChanges(old.headers ?? {}, now.headers ?? {})) changes.push({ where: type, what: `headers: ${what}` });
    if (JSON.stringify(keyRule(old)) !== JSON.stringify(keyRule(now))) {
      changes.push({ where: type, what: `message key changed: ${JSON.stringify(keyRule(old))} -> ${JSON.stringify(keyRule(now))}` });
    }
  }
  return changes;
}

/** The key's schema without its prose: what a producer must write. */
function keyRule(message: EventMessage): Record<string, unknown> {
  const { description: _description, ...rule } = message.bindings?.kafka?.key ?? {};
  return rule;
}
