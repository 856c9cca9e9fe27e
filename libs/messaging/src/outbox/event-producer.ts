import type { DomainEvent, EventType } from '@erp/contracts';
import type { EntityManager } from 'typeorm';

/**
 * The one shape of a service's event producer, `apps/<service>/src/events/<aggregate>-events.ts`:
 * an `@Injectable()` class over `Outbox` whose `add(tx, type, change)` turns a change into its
 * event and adds it to the outbox in the change's own transaction. Call it after the write that
 * changed (and so locked) the aggregate: two changes of one aggregate then reach the outbox, and
 * Kafka, in commit order. `change` names the company; what else it holds is the service's. It
 * answers the event it added (a service may hand it on directly too: docs/cross-service-reads.md).
 */
export interface EventProducer<Type extends EventType, Change extends { companyId: string }> {
  add(tx: EntityManager, type: Type, change: Change): Promise<DomainEvent<Type>>;
}
