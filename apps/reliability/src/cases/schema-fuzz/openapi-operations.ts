/** The parts of an OpenAPI 3.1 document the schema-driven fuzz reads. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  $ref?: string;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** Templated, e.g. `/v1/customer/{customerNumber}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema, resolved; undefined for bodiless operations. */
  jsonBody?: JsonSchema;
  /** True when the body is not JSON (multipart uploads): only parameters are fuzzed. */
  otherBody: boolean;
  responses: string[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> }; responses?: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Every operation of the document, its body schema's references resolved (cycles cut). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const schemas = document.components?.schemas ?? {};
  const resolve = (schema: JsonSchema | undefined, seen: string[] = []): JsonSchema | undefined => {
    if (!schema) return undefined;
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      return seen.includes(name) ? { type: 'object' } : resolve(schemas[name], [...seen, name]);
    }
    const out: JsonSchema = { ...schema };
    if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, seen) ?? {}]));
    if (schema.items) out.items = resolve(schema.items, seen);
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const alternatives = schema[key];
      if (alternatives) out[key] = alternatives.map((s) => resolve(s, seen) ?? {});
    }
    return out;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => {
        const content = op.requestBody?.content ?? {};
        return {
          method: method.toUpperCase(),
          path,
          parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(p.schema) })),
          jsonBody: content['application/json'] ? resolve(content['application/json'].schema) : undefined,
          otherBody: Object.keys(content).some((type) => type !== 'application/json'),
          responses: Object.keys(op.responses ?? {}),
        };
      }),
  );
}

/** The JSON types a schema allows (`type` may be a list, as in `["string", "null"]`). */
export function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  return [];
}
