import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { getMetadataStorage } from 'class-validator';
import { createEvent, validateEnvelope } from '../envelope/validate-envelope';
import { EVENT_REGISTRY, EVENT_TYPES, type EventType } from '../registry/event-registry';
import { SAMPLE_EVENT_DATA } from '../testing/sample-event-data';
import { eventDataSchema } from './event-data-schema';

// Strict: a keyword 2020-12 does not know or a `required` name without a property fails the
// compile instead of being ignored by a receiver.
const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }));

type Data = Record<string, unknown>;

function contractAccepts(type: EventType, data: Data): boolean {
  const event = createEvent({ type, source: 'test', companyId: '1000001', subject: 'x', data: data as never });
  return validateEnvelope(event).valid;
}

function schemaAccepts(type: EventType, data: Data): boolean {
  return ajv.validate(eventDataSchema(type), data);
}

function without(data: Data, property: string): Data {
  const { [property]: _dropped, ...rest } = data;
  return rest;
}

/** Values a producer might get wrong: a bad enum value or pattern, empty, too long, wrong type... */
const WRONG_VALUES: unknown[] = [null, '', 'not valid ✗', 'x'.repeat(300), 12345, 0, 1.5, '7', true, {}];

/**
 * Where the schema knowingly lets through what the class refuses: JSON Schema has no ISO 8601
 * format (its date-time needs a zone, which `lastModifiedDateTime` never has), so the schema says
 * string and the description says the rest.
 */
const LOOSER_THAN_CONTRACT: Record<string, (value: unknown) => boolean> = {
  lastModifiedDateTime: (value) => typeof value === 'string',
};

describe.each(EVENT_TYPES)('eventDataSchema(%s)', (type) => {
  const sample = SAMPLE_EVENT_DATA[type] as unknown as Data;
  const schema = eventDataSchema(type);
  const properties = Object.keys(schema['properties'] as Data);

  it('is a valid JSON Schema 2020-12 object schema that keeps unknown fields allowed', () => {
    expect(() => ajv.compile(schema)).not.toThrow();
    // Ajv knows OpenAPI 3.0's `nullable` itself, so strict mode would let it through; a 2020-12
    // receiver would ignore it and refuse null.
    expect(JSON.stringify(schema)).not.toMatch(/"nullable":true/);
    expect(schema['type']).toBe('object');
    expect(schema['additionalProperties']).toBeUndefined();
  });

  it('lists every property of the contract class, and the sample sets each of them', () => {
    const declared = getMetadataStorage()
      .getTargetValidationMetadatas(EVENT_REGISTRY[type].Data, '', true, false)
      .map((meta) => meta.propertyName);
    expect([...properties].sort()).toEqual([...new Set(declared)].sort());
    expect(Object.keys(sample).sort()).toEqual([...properties].sort());
  });

  it('requires exactly the properties without which the contract refuses the data', () => {
    const required = properties.filter((property) => !contractAccepts(type, without(sample, property)));
    expect(schema['required']).toEqual(required);
    for (const property of required) expect(schemaAccepts(type, without(sample, property))).toBe(false);
  });

  it('accepts the sample the contract accepts, and fields the contract does not know', () => {
    expect(contractAccepts(type, sample)).toBe(true);
    expect(schemaAccepts(type, sample)).toBe(true);
    expect(schemaAccepts(type, { ...sample, addedLater: 1 })).toBe(true);
  });

  it.each(WRONG_VALUES.map((value) => [JSON.stringify(value).slice(0, 20), value]))(
    'gives the contract verdict on every property set to %s',
    (_label, value) => {
      for (const property of properties) {
        const data = { ...sample, [property]: value };
        const expected = contractAccepts(type, data) || (LOOSER_THAN_CONTRACT[property]?.(value) ?? false);
        expect({ property, accepted: schemaAccepts(type, data) }).toEqual({ property, accepted: expected });
      }
    },
  );
});

describe('eventDataSchema of a nullable field', () => {
  it('keeps currencyId required but allows null, as its @ValidateIf(value !== null) says', () => {
    for (const type of ['CUSTOMER_UPDATED', 'SUPPLIERINVOICE_UPDATED'] as const) {
      const schema = eventDataSchema(type);
      expect(schema['required']).toContain('currencyId');
      expect((schema['properties'] as Data)['currencyId']).toMatchObject({ type: ['string', 'null'], pattern: '^[A-Z]{3}$' });
      expect(schemaAccepts(type, { ...SAMPLE_EVENT_DATA[type], currencyId: null })).toBe(true);
    }
  });

  it('carries the descriptions written on the contract classes', () => {
    const properties = eventDataSchema('SUPPLIERINVOICE_CREATED')['properties'] as Record<string, Data>;
    expect(properties['amount']['description']).toMatch(/exact decimal string/);
    expect(properties['lastModifiedDateTime']).toEqual({ type: 'string', description: expect.stringMatching(/without zone/) });
  });
});
