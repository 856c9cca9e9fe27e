import Ajv, { type ValidateFunction } from 'ajv';

/** A repository copy of part of a published OpenAPI 3.0 document: its `components.schemas` at least. */
export interface PublishedDocumentPart {
  components: { schemas: Record<string, unknown> };
}

/**
 * Validates response bodies against the schemas of a published OpenAPI 3.0 document with Ajv (a
 * maintained JSON Schema validator that knows 3.0's `nullable`): `additionalProperties: false`,
 * types, nullability, enums and formats as published. Returns Ajv's error texts (none when the body
 * conforms), so a test shows every violation at once.
 */
export function publishedSchemaValidator(document: PublishedDocumentPart): (schemaName: string, body: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // The .NET formats of such documents: numbers are checked by `type`, date-time by its pattern.
  for (const format of ['int32', 'int64', 'double', 'float', 'byte', 'uuid']) ajv.addFormat(format, true);
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i);
  ajv.addSchema({ $id: 'published', components: document.components });
  const compiled = new Map<string, ValidateFunction>();
  return (schemaName, body) => {
    let validate = compiled.get(schemaName);
    if (!validate) {
      validate = ajv.compile({ $ref: `published#/components/schemas/${schemaName}` });
      compiled.set(schemaName, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  };
}
