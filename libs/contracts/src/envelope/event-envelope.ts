import { JSONSchema } from 'class-validator-jsonschema';
import { IsISO8601, IsNotEmpty, IsObject, IsString, IsUUID, Matches, MaxLength } from 'class-validator';

/** Event type names: upper case words joined by underscores, e.g. `CUSTOMER_CREATED`. */
export const EVENT_TYPE_PATTERN = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/**
 * The envelope every domain event travels in, on every topic. `subject` is the aggregate's id
 * (with `companyId` it makes the Kafka message key, so one aggregate's events stay in order);
 * `time` is when the change happened (ISO 8601 with zone); `data` is validated per `type` by the
 * class the event registry names.
 */
export class EventEnvelope<TType extends string = string, TData extends object = object> {
  @JSONSchema({ description: 'Unique per event (a uuid, also the `event-id` header); consumers deduplicate on it.' })
  @IsUUID()
  id: string;

  @JSONSchema({ description: 'The event type, e.g. `CUSTOMER_CREATED` (also the `event-type` header).' })
  @IsString()
  @Matches(EVENT_TYPE_PATTERN, { message: 'type must be upper case words joined by "_", e.g. CUSTOMER_CREATED' })
  type: TType;

  @JSONSchema({ description: 'The producing service, e.g. `customers-v1`.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  source: string;

  @JSONSchema({ description: 'The company (tenant) the change belongs to; the first part of the message key.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  companyId: string;

  @JSONSchema({ description: 'The aggregate the event is about (a customer number, `<type>/<orderId>`...); the second part of the message key.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  subject: string;

  @JSONSchema({ description: 'When the change happened: ISO 8601 with a zone (`Z` or an offset).' })
  @IsISO8601({ strict: true, strictSeparator: true })
  @Matches(/(Z|[+-]\d{2}:?\d{2})$/, { message: 'time must carry a zone (Z or an offset)' })
  time: string;

  @JSONSchema({ description: "The payload, validated per `type` by the event's payload class." })
  @IsObject()
  data: TData;
}
