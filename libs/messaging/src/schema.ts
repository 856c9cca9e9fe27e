import { ProcessedEventEntity } from './consumer/processed-event.entity';
import { CreateOutbox1763740000000 } from './migrations/1763740000000-create-outbox.migration';
import { CreateProcessedEvents1763740000001 } from './migrations/1763740000001-create-processed-events.migration';
import { AddOutboxTraceContext1795300000000 } from './migrations/1795300000000-add-outbox-trace-context.migration';
import { OutboxMessageEntity } from './outbox/outbox-message.entity';

/** What a service that publishes events adds to its entities and migrations. */
export const OUTBOX_ENTITIES = [OutboxMessageEntity];
export const OUTBOX_MIGRATIONS = [CreateOutbox1763740000000, AddOutboxTraceContext1795300000000];

/** What a service that consumes events adds to its entities and migrations. */
export const PROCESSED_EVENTS_ENTITIES = [ProcessedEventEntity];
export const PROCESSED_EVENTS_MIGRATIONS = [CreateProcessedEvents1763740000001];

/** Both, for a service that publishes and consumes. */
export const MESSAGING_ENTITIES = [...OUTBOX_ENTITIES, ...PROCESSED_EVENTS_ENTITIES];
export const MESSAGING_MIGRATIONS = [...OUTBOX_MIGRATIONS, ...PROCESSED_EVENTS_MIGRATIONS];
