import type { JsonSchema, Operation } from './openapi-operations';
import { typesOf } from './openapi-operations';

/** One request of the fuzz, before the fixture's ids and the auth headers are put in. */
export interface FuzzRequest {
  label: string;
  /** Path parameter values; a parameter left out gets the fixture's value for it. */
  path: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** JSON text, or undefined for no body. */
  body?: string;
  /** The request is invalid by construction (the probes): anything but a 4xx is a finding. */
  mustRefuse?: boolean;
}

/** One past PostgreSQL's integer: where an id or count column ends. */
const PAST_INTEGER = 2_147_483_648;
const NUL_TEXT = 'a\u0000b';
const WRONG_BODY_TYPES = ['null', '[]', '"text"', '5'];

/**
 * The requests every operation gets on every run, whatever the seed: each class of input that once
 * got through (NUL in text, an integer past its column, a body that is not an object) is tried on
 * every parameter and field where it can occur, so that bringing one back fails the test at once.
 */
export function probesOf(operation: Operation): FuzzRequest[] {
  const probes: FuzzRequest[] = [];
  const empty = { path: {}, query: [], headers: {}, mustRefuse: true };
  // One parameter at a time, the others valid or absent: a value refused for another reason first
  // (a bad date next to it) would hide where the NUL goes.
  for (const p of operation.parameters.filter((p) => p.in === 'query')) {
    probes.push({ ...empty, label: `probe NUL in ${p.name}`, query: [[p.name, NUL_TEXT]] });
  }
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  for (const p of pathParams) probes.push({ ...empty, label: `probe NUL in ${p.name}`, path: { [p.name]: NUL_TEXT } });
  for (const p of pathParams.filter((p) => typesOf(p.schema ?? {}).includes('integer'))) {
    probes.push({ ...empty, label: `probe ${p.name} past integer`, path: { [p.name]: String(PAST_INTEGER) } });
  }
  if (operation.jsonBody) {
    const ifMatch: Record<string, string> = operation.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'if-match') ? { 'if-match': '*' } : {};
    for (const body of WRONG_BODY_TYPES) probes.push({ ...empty, headers: ifMatch, label: `probe body ${body}`, body });
    for (const [field, body] of integerLeafBodies(operation.jsonBody)) {
      probes.push({ ...empty, headers: ifMatch, label: `probe ${field} past integer`, body: JSON.stringify(body) });
    }
  }
  return probes;
}

/**
 * For each integer field of a body schema (through objects and array items), the smallest body
 * that holds it set past PostgreSQL's integer; once per value of each enum field beside it, since
 * a rule may look the integer up only for some of them (an `update` line's id, not an `insert`'s).
 */
export function integerLeafBodies(schema: JsonSchema, field = '', depth = 0): Array<[string, unknown]> {
  if (depth > 5) return [];
  const types = typesOf(schema);
  if (types.includes('array') && schema.items) {
    return integerLeafBodies(schema.items, `${field}[0]`, depth + 1).map(([f, v]) => [f, [v]]);
  }
  if (!types.includes('object') || !schema.properties) return [];
  const properties = Object.entries(schema.properties);
  const siblingsVariants = enumVariants(properties);
  return properties.flatMap(([name, property]) => {
    const path = field ? `${field}.${name}` : name;
    const leaves: Array<[string, unknown]> = typesOf(property).includes('integer')
      ? [[path, PAST_INTEGER]]
      : integerLeafBodies(property, path, depth + 1);
    return leaves.flatMap(([leafPath, value]) => siblingsVariants.map((siblings): [string, unknown] => [leafPath, { ...siblings, [name]: value }]));
  });
}

function enumVariants(properties: Array<[string, JsonSchema]>): Array<Record<string, unknown>> {
  for (const [name, property] of properties) {
    if (property.enum && property.enum.length > 0 && property.enum.length <= 5) return property.enum.map((value) => ({ [name]: value }));
  }
  return [{}];
}
