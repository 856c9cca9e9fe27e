// class-transformer's @Type reads design-time metadata through the reflect-metadata polyfill.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, ValidateNested } from 'class-validator';
import { EventEnvelope } from '../envelope/event-envelope';
import { EVENT_REGISTRY, type EventData, type EventType, eventTypesOf } from '../registry/event-registry';
import type { TopicName } from '../topics/topics';

/** The constructor `topicEventEnvelope` returns: an envelope class for the given event types. */
export type TopicEventEnvelopeClass<T extends EventType> = new () => EventEnvelope<T, EventData<T>>;

/**
 * The envelope class of every event on one topic, for consumers that validate an event as a whole
 * (a Nest `@Payload()` DTO under a ValidationPipe): `type` must be one of the topic's event types
 * and `data` is checked against the topic's payload class. The event types of a topic share that
 * class (a topic is one aggregate's change stream; each type's `Data` is it or an empty subclass of
 * it), which is what lets one class validate any of them; a type whose `Data` is something else is
 * refused here, at start-up, rather than half-checked later.
 */
export function topicEventEnvelope<T extends EventType>(topic: TopicName, Payload: new () => object): TopicEventEnvelopeClass<T> {
  const types = eventTypesOf(topic);
  if (types.length === 0) throw new Error(`no event types are registered for topic ${topic}`);
  for (const type of types) {
    const Data = EVENT_REGISTRY[type].Data;
    if (Data !== Payload && !(Data.prototype instanceof Payload)) {
      throw new Error(`${type}.Data is not the payload class ${Payload.name} of ${topic}`);
    }
  }
  const Data = Payload;

  class TopicEvent extends EventEnvelope<T, EventData<T>> {}
  // Applied as calls, not as decorators on redeclared fields: a redeclared field would shadow the
  // envelope's own (class fields are defined, ES2022) and TypeScript refuses `declare` with decorators.
  IsIn(types, { message: `type must be one of the event types of ${topic}: ${types.join(', ')}` })(TopicEvent.prototype, 'type');
  ValidateNested()(TopicEvent.prototype, 'data');
  Type(() => Data)(TopicEvent.prototype, 'data');
  return TopicEvent;
}
