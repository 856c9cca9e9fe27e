import fc from 'fast-check';
import { type JsonSchema, typesOf } from './openapi-operations';

/**
 * Values for a schema: of the type it declares but at and past its edges (the "valid but
 * extreme" half), or of another type altogether (the "invalid" half). Every operation's
 * parameters and body are generated from these, so an endpoint added later is covered with no
 * new test code.
 */

/** Integers around the ranges values end in: PostgreSQL integer and bigint, JavaScript's safe range, doubles. */
const EDGE_INTEGERS = [0, 1, -1, 2_147_483_647, 2_147_483_648, -2_147_483_649, 2 ** 53, -(2 ** 53), 1e21, 1e308, -1e308];
const EDGE_NUMBERS = [0, -0, 0.1, 1e-7, 123.456789, 99_999_999_999.99, 1e21, 1e308, -1e308, 5e-324];
/** Text PostgreSQL cannot store (NUL), that looks like SQL or markup, or is long, empty or odd Unicode. */
export const EDGE_STRINGS = ['', ' ', 'a\u0000b', '\u0000', "' OR '1'='1", '%', '_', '\\', '😀'.repeat(3), '\u202e', '\ud800', 'null', '-1', '1e309', '9'.repeat(40), '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2026-02-30'];

function stringsFor(schema: JsonSchema): fc.Arbitrary<string> {
  const max = schema.maxLength ?? 255;
  return fc.oneof(
    ...(schema.enum ? [fc.constantFrom(...(schema.enum.filter((v) => typeof v === 'string') as string[]))] : []),
    fc.constantFrom(...EDGE_STRINGS, 'x'.repeat(max), 'x'.repeat(max + 1)),
    fc.string({ maxLength: 30 }),
  );
}

/** A value of one of the schema's types, at or past its edges. */
export function extremeOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => extremeOf(s, depth)));
  const options = typesOf(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'integer':
        return fc.oneof(fc.constantFrom(...EDGE_INTEGERS, ...[schema.minimum, schema.maximum].flatMap((v) => (v === undefined ? [] : [v, v - 1, v + 1]))), fc.integer());
      case 'number':
        return fc.oneof(fc.constantFrom(...EDGE_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }));
      case 'string':
        return stringsFor(schema);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return depth > 4 ? fc.constant([]) : fc.array(extremeOf(schema.items ?? {}, depth + 1), { maxLength: 3 });
      case 'object':
        return depth > 4 ? fc.constant({}) : objectOf(schema, depth);
      default:
        return anyJson;
    }
  });
  return options.length > 0 ? fc.oneof(...options) : anyJson;
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 });
  return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, extremeOf(property, depth + 1)])), { requiredKeys: [] });
}

const anyJson = fc.jsonValue({ maxDepth: 2 });

/** A value of a type the schema does not allow (a string where a number goes, null for an object...). */
export function invalidOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const allowed = new Set(typesOf(schema));
  const wrong: unknown[] = [
    ...(allowed.has('string') ? [] : ['text', '']),
    ...(allowed.has('integer') || allowed.has('number') ? [] : [42, -1.5]),
    ...(allowed.has('integer') ? [1.5, '7'] : []),
    ...(allowed.has('boolean') ? [] : [true]),
    ...(allowed.has('null') ? [] : [null]),
    ...(allowed.has('array') ? [] : [[], [1]]),
    ...(allowed.has('object') ? [] : [{}, { a: 1 }]),
  ];
  return wrong.length > 0 ? fc.constantFrom(...wrong) : fc.constant(Symbol.for('unrepresentable'));
}

/** A body for a JSON operation: mostly schema-shaped extremes, else any wrong JSON type, else junk. */
export function bodyOf(schema: JsonSchema): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: extremeOf(schema).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: invalidOf(schema).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"text"', '0', 'true', '{"a":', '') },
  );
}

/** A query, path or header parameter's text: its schema's extremes, rendered as the wire carries them. */
export function parameterTextOf(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const wire = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');
  return fc.oneof(
    extremeOf(schema ?? { type: 'string' }).map((value) => (Array.isArray(value) ? value.map(wire).join(',') : wire(value))),
    fc.constantFrom(...EDGE_STRINGS),
  );
}
