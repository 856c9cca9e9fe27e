import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { type DomainEvent, EVENT_REGISTRY, type EventData, type EventType, isEventType } from '../registry/event-registry';
import { EventEnvelope } from './event-envelope';

export type EnvelopeValidation =
  | { valid: true; event: DomainEvent }
  | { valid: false; problems: string[] };

export interface ValidateEnvelopeOptions {
  /**
   * The topic the message came from (without any deployment prefix). When given, an event type
   * that belongs to another topic is a problem too.
   */
  topic?: string;
  /**
   * Check `data` against the type's payload class too (default true). A Nest consumer turns it off
   * because its handler's `@Payload()` DTO validates the whole event, data included, in a pipe.
   */
  data?: boolean;
}

/**
 * Checks a consumed message (bytes, JSON text or a parsed object) against the envelope and the
 * data class of its type. Returns the typed event, or every problem found (for the dead-letter
 * reason). Fields the contract does not know are kept, not refused: producers may add optional
 * fields within a topic's major version, and older consumers must keep working (tolerant reader).
 */
export function validateEnvelope(raw: unknown, options: ValidateEnvelopeOptions = {}): EnvelopeValidation {
  let parsed: unknown = raw;
  if (typeof raw === 'string' || raw instanceof Uint8Array) {
    const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { valid: false, problems: [`not JSON: ${(error as Error).message}`] };
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { valid: false, problems: ['the message is not a JSON object'] };
  }

  const envelope = plainToInstance(EventEnvelope, parsed);
  const problems = describeValidationErrors(validateSync(envelope, { forbidUnknownValues: false }));
  const type = (parsed as { type?: unknown }).type;
  if (typeof type === 'string' && !problems.some((p) => p.startsWith('type:'))) {
    if (!isEventType(type)) {
      problems.push(`type: unknown event type ${type}`);
    } else {
      if (options.topic !== undefined && EVENT_REGISTRY[type].TOPIC !== options.topic) {
        problems.push(`type: ${type} belongs to ${EVENT_REGISTRY[type].TOPIC}, not ${options.topic}`);
      }
      const rawData = (parsed as { data?: unknown }).data;
      if (options.data !== false && rawData !== null && typeof rawData === 'object' && !Array.isArray(rawData)) {
        const data = plainToInstance(EVENT_REGISTRY[type].Data as new () => object, rawData);
        problems.push(...describeValidationErrors(validateSync(data, { forbidUnknownValues: false }), 'data.'));
        envelope.data = data;
      }
    }
  }
  if (problems.length > 0) return { valid: false, problems };
  return { valid: true, event: envelope as DomainEvent };
}

export interface NewEventInput<T extends EventType> {
  type: T;
  /** The producing service, e.g. `customers-v1`. */
  source: string;
  companyId: string;
  /** The aggregate's id. */
  subject: string;
  data: EventData<T>;
  /** Default: a new UUID. */
  id?: string;
  /** Default: now. */
  time?: Date | string;
}

/** Builds an envelope (new id, time now unless given). Validate it with `validateEnvelope`. */
export function createEvent<T extends EventType>(input: NewEventInput<T>): DomainEvent<T> {
  const time = input.time instanceof Date ? input.time.toISOString() : (input.time ?? new Date().toISOString());
  return {
    id: input.id ?? randomUUID(),
    type: input.type,
    source: input.source,
    companyId: input.companyId,
    subject: input.subject,
    time,
    data: input.data,
  } as unknown as DomainEvent<T>;
}

/** class-validator's errors as `path: message` lines (`data.status: status must be one of ...`). */
export function describeValidationErrors(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = `${prefix}${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
    return [...own, ...describeValidationErrors(error.children ?? [], `${path}.`)];
  });
}
