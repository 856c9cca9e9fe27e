import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PATTERN_EXTRAS_METADATA, PATTERN_METADATA } from '@nestjs/microservices/constants';
import { type EventConsumer, type EventService, eventConsumersOf, eventTypesOf, type TopicName } from '@erp/contracts';

/** One `@EventPattern` handler as the transport binds it: group, topic and the types it takes. */
export type EventHandlerBinding = Pick<EventConsumer, 'groupId' | 'topic' | 'eventTypes'>;

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

/**
 * Every `@EventPattern` handler of the controllers under `srcDir` (an app's `src`), read from the
 * decorators' metadata as the Kafka event transport reads it: a handler with no `eventTypes`
 * takes every type of its topic. Sorted, so a test can compare it with the declared consumers.
 */
export function eventHandlersIn(srcDir: string): EventHandlerBinding[] {
  const bindings: EventHandlerBinding[] = [];
  for (const file of controllerFiles(srcDir)) {
    for (const exported of Object.values(require(file) as Record<string, unknown>)) {
      if (typeof exported !== 'function') continue;
      const prototype = (exported as { prototype: Record<string, unknown> }).prototype;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const patterns = Reflect.getMetadata(PATTERN_METADATA, handler) as string[] | undefined;
        const extras = Reflect.getMetadata(PATTERN_EXTRAS_METADATA, handler) as { groupId: string; eventTypes?: EventConsumer['eventTypes'] } | undefined;
        for (const topic of patterns ?? []) {
          bindings.push({ groupId: extras?.groupId ?? '', topic: topic as TopicName, eventTypes: sorted(extras?.eventTypes ?? eventTypesOf(topic)) });
        }
      }
    }
  }
  return sortBindings(bindings);
}

/** The consumers `@erp/contracts` declares for a service (EVENT_CONSUMERS), in the same form. */
export function declaredEventHandlers(service: EventService): EventHandlerBinding[] {
  return sortBindings(eventConsumersOf(service).map(({ groupId, topic, eventTypes }) => ({ groupId, topic, eventTypes: sorted(eventTypes) })));
}

const sorted = <T extends string>(list: readonly T[]): T[] => [...list].sort();
const sortBindings = (list: EventHandlerBinding[]) => list.sort((a, b) => `${a.groupId} ${a.topic}`.localeCompare(`${b.groupId} ${b.topic}`));
