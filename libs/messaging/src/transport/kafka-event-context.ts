import { BaseRpcContext } from '@nestjs/microservices';
import type { DomainEvent } from '@erp/contracts';
import type { EntityManager } from 'typeorm';
import type { EventHandlerContext } from '../consumer/event-consumer';

/**
 * What `@Ctx()` gives an `@EventPattern` handler: the transaction to write through (it also records
 * the event as processed, so the writes and the record commit together), the envelope as it
 * arrived, and where the message came from. Nest's own `KafkaContext` carries a raw kafkajs
 * message; this one carries what the inbox and the handler's writes need.
 */
export class KafkaEventContext extends BaseRpcContext<[EventHandlerContext, DomainEvent]> {
  /** The transaction of this event (and of the others handled with it); write only through it. */
  getManager(): EntityManager {
    return this.args[0].manager;
  }

  /** The envelope as the transport parsed it (before the payload pipe turned it into the DTO). */
  getEnvelope(): DomainEvent {
    return this.args[1];
  }

  /** The topic as the contracts name it (without the deployment prefix). */
  getTopic(): string {
    return this.args[0].topic;
  }

  getPartition(): number {
    return this.args[0].partition;
  }

  getOffset(): string {
    return this.args[0].offset;
  }

  /** 1 on the first try, 2 on the first retry, ... */
  getAttempt(): number {
    return this.args[0].attempt;
  }
}
