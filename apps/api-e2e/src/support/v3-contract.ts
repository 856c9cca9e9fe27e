import { readFileSync } from 'node:fs';
import path from 'node:path';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, SetMatchType, type Document } from 'openapi-backend';

const DOCUMENT_FILE = path.join(__dirname, '../../reference/published-v3-document.json');

/**
 * The published v3 document (the repository's copy, `apps/api-e2e/reference/`) behind a maintained
 * OpenAPI validator (openapi-backend: its router parses requests as the document describes them,
 * its Ajv validators check parameters, bodies, statuses' schemas and headers). What the validator
 * does not look at itself is checked here: that the status is one the operation declares, that a
 * response the document declares without content has none, the media type, and the headers the
 * document does not declare.
 */

/** One departure from the document: where it is and what the validator said. */
export interface Violation {
  operationId: string;
  /** `request` (what the test sent), or the part of the response. */
  part: 'request' | 'status' | 'content-type' | 'headers' | 'body';
  /** JSON pointer into the part (`/query/expand`, `/value/0/lines`, or the header name). */
  at: string;
  /** Ajv keyword, or `undeclared` for what the document does not have at all. */
  keyword: string;
  /** The property, header or value concerned (Ajv's `additionalProperty`, `missingProperty`, ...). */
  subject?: string;
  message: string;
  /** For a part an extension adds: the document's schema it was checked against (else the operation's own). */
  against?: string;
}

export interface ContractRequest {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** The path as sent, query excluded. */
  path: string;
  /** The query string as sent (without `?`). */
  query: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface ContractResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when not JSON; undefined when empty. */
  body: unknown;
}

/**
 * Headers that belong to HTTP itself (framing, connection, representation metadata every client
 * library handles), not to an API: every server sends them and no generated client reads them.
 * Everything else a response carries is either declared by the document or a listed extension.
 */
export const HTTP_TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'vary']);

type AjvError = { instancePath: string; keyword: string; params: Record<string, unknown>; message?: string };
type SchemaValidator = ((value: unknown) => boolean) & { errors?: AjvError[] | null };

export class V3Contract {
  readonly api: OpenAPIBackend;
  private readonly schemaValidators = new Map<string, SchemaValidator>();

  constructor() {
    this.api = new OpenAPIBackend({
      definition: JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Document,
      validate: true,
      coerceTypes: true,
      ajvOpts: { allErrors: true },
      // The document's formats beyond OpenAPI's own (date-time, uuid, ...), and the empty `format: ""`
      // it gives the Location header (no constraint).
      customizeAjv: (ajv) => {
        addFormats(ajv);
        ajv.addFormat('', true);
        return ajv;
      },
    });
  }

  async init(): Promise<this> {
    await this.api.init();
    return this;
  }

  operationIds(): string[] {
    return this.api.getOperations().map((operation) => operation.operationId as string);
  }

  operation(operationId: string) {
    const operation = this.api.getOperation(operationId);
    if (!operation) throw new Error(`the document has no operation ${operationId}`);
    return operation;
  }

  /** The operation's path with its path parameters filled in (each must be one the document declares). */
  path(operationId: string, params: Record<string, string | number> = {}): string {
    const operation = this.operation(operationId);
    return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!(name in params)) throw new Error(`${operationId}: no value for path parameter ${name}`);
      return encodeURIComponent(String(params[name]));
    });
  }

  /** The request, checked against the operation's parameters and request body. */
  checkRequest(operationId: string, request: ContractRequest): Violation[] {
    const result = this.api.validator.validateRequest(
      { method: request.method, path: request.path, query: queryObject(request.query), headers: request.headers, body: request.body },
      operationId,
    );
    return (result.errors ?? []).map((error) => fromAjv(operationId, 'request', error as AjvError));
  }

  /** Status, media type, headers and body of the response, checked against the operation. */
  checkResponse(operationId: string, response: ContractResponse): Violation[] {
    const operation = this.operation(operationId);
    const declared = operation.responses?.[String(response.status)] as
      | { content?: Record<string, unknown>; headers?: Record<string, unknown> }
      | undefined;
    if (!declared) {
      return [{ operationId, part: 'status', at: '', keyword: 'undeclared', subject: String(response.status), message: `status ${response.status} is not declared` }];
    }
    const violations: Violation[] = [];
    const headers = this.api.validator.validateResponseHeaders(response.headers, operationId, { statusCode: response.status, setMatchType: SetMatchType.Superset });
    violations.push(...(headers.errors ?? []).map((error) => fromAjv(operationId, 'headers', error as AjvError)));
    const declaredHeaders = new Set(Object.keys(declared.headers ?? {}).map((name) => name.toLowerCase()));
    for (const name of Object.keys(response.headers)) {
      if (!declaredHeaders.has(name) && !HTTP_TRANSPORT_HEADERS.has(name)) {
        violations.push({ operationId, part: 'headers', at: name, keyword: 'undeclared', subject: name, message: `header ${name} is not declared` });
      }
    }
    const mediaType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (!declared.content) {
      if (response.body !== undefined) {
        violations.push({ operationId, part: 'body', at: '', keyword: 'undeclared', message: `status ${response.status} declares no content, but the response has a body` });
      }
      return violations;
    }
    if (!mediaType || !(mediaType in declared.content)) {
      violations.push({ operationId, part: 'content-type', at: '', keyword: 'undeclared', subject: mediaType ?? '', message: `media type ${mediaType} is not declared (${Object.keys(declared.content).join(', ')})` });
    }
    const body = this.api.validator.validateResponse(response.body, operationId, response.status);
    violations.push(...(body.errors ?? []).map((error) => fromAjv(operationId, 'body', error as AjvError)));
    return violations;
  }

  /** A value checked against one of the document's schemas (`SalesOrderDto`, ...); `at` prefixes the pointers. */
  checkSchema(operationId: string, schemaName: string, value: unknown, at = ''): Violation[] {
    let validate = this.schemaValidators.get(schemaName);
    if (!validate) {
      const schema = (this.api.definition.components?.schemas as Record<string, object> | undefined)?.[schemaName];
      if (!schema) throw new Error(`the document has no schema ${schemaName}`);
      // The definition is dereferenced by init(); the response context's Ajv has the document's formats.
      const ajv = (this.api.validator as unknown as { getAjv(context: string): { compile(schema: object): SchemaValidator } }).getAjv('response');
      validate = ajv.compile(schema);
      this.schemaValidators.set(schemaName, validate);
    }
    validate(value);
    return (validate.errors ?? []).map((error) => ({
      ...fromAjv(operationId, 'body', { ...error, instancePath: `${at}${error.instancePath}` }),
      against: schemaName,
    }));
  }
}

/**
 * The query as form-style, exploded parameters read (the document's default style): a repeated name is
 * an array. Handed to the validator parsed, since its own query-string parser (qs) stops reading a
 * repeated name as an array past 20 values, and DeleteLines takes up to 1000 ids.
 */
function queryObject(query: string): Record<string, string | string[]> {
  const parsed: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = parsed[name];
    parsed[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return parsed;
}

function fromAjv(operationId: string, part: Violation['part'], error: AjvError): Violation {
  const params = error.params;
  const subject = [params['additionalProperty'], params['missingProperty'], params['format'], params['allowedValues']].find((value) => value !== undefined);
  return {
    operationId,
    part,
    at: error.instancePath,
    keyword: error.keyword,
    ...(subject !== undefined ? { subject: Array.isArray(subject) ? subject.join('|') : String(subject) } : {}),
    message: `${error.instancePath || '/'} ${error.message ?? error.keyword}${subject !== undefined ? ` (${String(subject)})` : ''}`,
  };
}

/** A response as the contract sees it: lower-case header names, the body parsed when it is JSON. */
export async function readResponse(response: Response): Promise<ContractResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const text = await response.text();
  let body: unknown = undefined;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers, body };
}

/** One line per violation, for a failure message. */
export function describeViolations(violations: Violation[]): string {
  return violations.map((v) => `${v.operationId} ${v.part} ${v.at || '/'} [${v.keyword}${v.subject ? ` ${v.subject}` : ''}]: ${v.message}`).join('\n');
}
