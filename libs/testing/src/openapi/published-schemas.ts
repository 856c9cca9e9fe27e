import Ajv, { type ValidateFunction } from 'ajv';

/** A repository copy of part of a published OpenAPI 3.0 document: its `components.schemas` at least. */
export interface PublishedDocumentPart {
  components: { schemas: Record<string, unknown> };
  paths?: Record<string, unknown>;
}

/** Checks a body against one schema of the document; Ajv's error texts, none when it conforms. */
type Check = (body: unknown) => string[];

/**
 * Ajv (a maintained JSON Schema validator that knows 3.0's `nullable`) over a published OpenAPI 3.0
 * document: `additionalProperties: false`, types, nullability, enums and formats as published.
 * Returns a checker per JSON pointer into the document, compiled once each.
 */
function publishedChecks(document: PublishedDocumentPart): (pointer: string) => Check {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // The .NET formats of such documents: numbers are checked by `type`, date-time by its pattern.
  for (const format of ['int32', 'int64', 'double', 'float', 'byte', 'uuid']) ajv.addFormat(format, true);
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i);
  ajv.addSchema({ $id: 'published', components: document.components, paths: document.paths ?? {} });
  const compiled = new Map<string, ValidateFunction>();
  return (pointer) => (body) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `published#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  };
}

/**
 * Validates bodies against a named schema of a published OpenAPI 3.0 document (`components.schemas`).
 * Returns every violation at once (none when the body conforms).
 */
export function publishedSchemaValidator(document: PublishedDocumentPart): (schemaName: string, body: unknown) => string[] {
  const check = publishedChecks(document);
  return (schemaName, body) => check(`/components/schemas/${schemaName}`)(body);
}

/**
 * Validates bodies against the `application/json` schema a published document declares for a GET's
 * 200 answer (`path` as the document writes it, e.g. `/api/v3/SalesOrders/{type}/{orderId}/tax`).
 */
export function publishedResponseValidator(document: PublishedDocumentPart): (path: string, body: unknown) => string[] {
  const check = publishedChecks(document);
  const escape = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
  return (path, body) => check(`/paths/${escape(path)}/get/responses/200/content/${escape('application/json')}/schema`)(body);
}
