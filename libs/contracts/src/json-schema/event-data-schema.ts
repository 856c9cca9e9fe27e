import { getMetadataStorage, IS_ISO8601, type MetadataStorage, ValidationTypes } from 'class-validator';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { EventEnvelope } from '../envelope/event-envelope';
import { EVENT_REGISTRY, type EventType } from '../registry/event-registry';

/** A JSON Schema (2020-12) object. */
export type JsonSchema = { [keyword: string]: unknown };

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type Condition = (object: object, value: unknown) => boolean;

/**
 * The JSON Schema (2020-12) of an event type's `data`, derived from the type's payload class, so
 * a schema handed to others (the webhook catalog) says what `validateEnvelope` checks and cannot
 * drift from it. Fields the class does not know stay allowed (tolerant reader, see README).
 */
export function eventDataSchema(type: EventType): JsonSchema {
  return classSchema(EVENT_REGISTRY[type].Data);
}

/**
 * The JSON Schema (2020-12) of a whole event of one type, as it travels (the Kafka message value):
 * the envelope class's schema, `type` fixed to the type and `data` the type's payload schema.
 */
export function eventEnvelopeSchema(type: EventType): JsonSchema {
  const envelope = classSchema(EventEnvelope);
  const properties = envelope['properties'] as Record<string, JsonSchema>;
  return {
    ...envelope,
    properties: { ...properties, type: { ...properties['type'], const: type }, data: { description: properties['data']?.['description'], ...eventDataSchema(type) } },
  };
}

/** The schema of a class-validator class: what the class checks, fields it does not know allowed. */
function classSchema(Data: new () => object): JsonSchema {
  const storage = getMetadataStorage();
  const options = { classValidatorMetadataStorage: storage, additionalConverters: CONVERTERS };
  const derived = targetConstructorToSchema(Data, options) as JsonSchema;
  const schema = toJsonSchema2020(inlineDefinitions(derived, validationMetadatasToSchemas(options) as Record<string, JsonSchema>)) as JsonSchema;
  const conditions = conditionsByProperty(storage.getTargetValidationMetadatas(Data, '', true, false));
  const properties = Object.keys(schema['properties'] as JsonSchema);
  const required = properties.filter((property) => !skips(conditions.get(property) ?? [], property, undefined));
  return { ...schema, required };
}

/**
 * A nested payload class (`@ValidateNested` + `@Type`) comes out as `$ref: '#/definitions/<Class>'`,
 * which a schema handed out on its own cannot resolve: each is replaced by the class's schema.
 */
function inlineDefinitions(value: unknown, definitions: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineDefinitions(item, definitions));
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as JsonSchema)['$ref'];
  const name = typeof ref === 'string' ? /^#\/definitions\/(.+)$/.exec(ref)?.[1] : undefined;
  if (name !== undefined && definitions[name]) {
    const { $ref: _ref, ...rest } = value as JsonSchema;
    return { ...(inlineDefinitions(definitions[name], definitions) as JsonSchema), ...rest };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlineDefinitions(item, definitions)]));
}

/** Where the library's OpenAPI-minded converters say something else than the class checks. */
const CONVERTERS = {
  // The library claims `format: date | date-time`, but JSON Schema's date-time is RFC 3339, which
  // needs a zone, and the v1 `lastModifiedDateTime` has none by contract. JSON Schema has no
  // ISO 8601 format, so the schema says string and the property's description says the rest.
  [IS_ISO8601]: { type: 'string' as const },
  // `@ValidateIf` and `@IsOptional` are one metadata type to the library, which drops such a
  // property from `required` and says nothing of null. Null is allowed when a condition skips
  // the property's checks for it (`required` is settled in eventDataSchema the same way).
  [ValidationTypes.CONDITIONAL_VALIDATION]: (meta: ValidationMetadata) =>
    skips([meta.constraints[0] as Condition], meta.propertyName, null) ? { nullable: true } : {},
};

/**
 * Whether class-validator skips a property's checks for this value (so accepts it): it does when
 * any of the property's conditions is false. A condition sees only its own property here, as
 * `currencyId`'s does; one that reads other fields cannot be said per property in a schema.
 */
function skips(conditions: Condition[], property: string, value: null | undefined): boolean {
  const object = value === undefined ? {} : { [property]: value };
  return conditions.some((condition) => !condition(object, value));
}

function conditionsByProperty(metadatas: ValidationMetadata[]): Map<string, Condition[]> {
  const conditions = new Map<string, Condition[]>();
  for (const meta of metadatas) {
    if (meta.type !== ValidationTypes.CONDITIONAL_VALIDATION) continue;
    conditions.set(meta.propertyName, [...(conditions.get(meta.propertyName) ?? []), meta.constraints[0] as Condition]);
  }
  return conditions;
}

/**
 * The library writes OpenAPI 3.0 schema objects, whose `nullable: true` JSON Schema 2020-12 (and
 * OpenAPI 3.1) does not know: there null is a type, or an alternative when no type is given.
 */
function toJsonSchema2020(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema2020);
  if (value === null || typeof value !== 'object') return value;
  const schema = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJsonSchema2020(item)])) as JsonSchema;
  // Only the keyword: a `properties` map may well hold a field named "nullable".
  if (schema['nullable'] !== true) return schema;
  const { nullable: _nullable, ...rest } = schema;
  if (typeof rest['type'] !== 'string') return { anyOf: [rest, { type: 'null' }] };
  const withNull: JsonSchema = { ...rest, type: [rest['type'], 'null'] };
  if (Array.isArray(rest['enum'])) withNull['enum'] = [...rest['enum'], null];
  return withNull;
}
