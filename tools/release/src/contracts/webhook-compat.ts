import { fullyIncompatibleSchemaChanges } from './schema-changes';

/** The webhook catalogue as `GET /api/webhooks/publishers` answers it (webhook-publisher). */
export interface WebhookCatalogue {
  value: { name: string; eventTypes: { type: string; schema: unknown }[] }[];
}

/**
 * The breaking changes of the webhook catalogue for receivers built against `before`: a removed
 * publisher or event type (or one moved to another publisher), and any change of a delivery
 * body schema other than an annotation or a new optional field (receivers read, as consumers do).
 */
export function webhookBreakingChanges(before: WebhookCatalogue, after: WebhookCatalogue): { where: string; what: string }[] {
  const changes: { where: string; what: string }[] = [];
  for (const publisher of before.value) {
    const now = after.value.find((p) => p.name === publisher.name);
    if (!now) {
      changes.push({ where: publisher.name, what: 'publisher removed' });
      continue;
    }
    for (const eventType of publisher.eventTypes) {
      const current = now.eventTypes.find((t) => t.type === eventType.type);
      if (!current) changes.push({ where: `${publisher.name} ${eventType.type}`, what: 'event type removed' });
      else for (const what of fullyIncompatibleSchemaChanges(eventType.schema, current.schema)) changes.push({ where: `${publisher.name} ${eventType.type}`, what });
    }
  }
  return changes;
}
