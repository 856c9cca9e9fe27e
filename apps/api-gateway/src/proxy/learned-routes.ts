import type { OpenApiDoc } from '@erp/openapi';
import type { UpstreamName } from './routes';

/** The header whose declaration (required) marks the v1 family's operations. */
const APPLICATION_TYPE_HEADER = 'ipp-application-type';
/** The security scheme whose requirement lists an operation's scope (`@erp/openapi` writes it). */
const BEARER_SCHEME = 'bearer';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Never routed, whatever a document says: the internal API is for other services only. */
export const INTERNAL_PATH = /^\/internal(?:\/|$)/;

/** What the owner's document says of one method of a path. */
export interface OperationRule {
  /** The scope the token needs (the operation's bearer requirement); absent: the method's. */
  scope?: string;
  /** The operation declares `ipp-application-type` required: the v1 family's rule. */
  v1: boolean;
}

/** One path of a service's public document, as the gateway routes it. */
export interface RouteRule {
  upstream: UpstreamName;
  /** The document's path, e.g. `/v1/{endpoint}/{objectId}/Attachment`. */
  template: string;
  pattern: RegExp;
  /** Literal segments: a path with more of them wins over one with parameters in their place. */
  literals: number;
  /** Per method (upper case). */
  operations: Record<string, OperationRule>;
}

type Parameter = { name?: string; in?: string; required?: boolean };
type Operation = { parameters?: Parameter[]; security?: Record<string, string[]>[] };

function patternOf(template: string): RegExp {
  const segments = template.split('/').map((segment) =>
    /^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(`^${segments.join('/')}/?$`);
}

function ruleOf(operation: Operation, pathParameters: Parameter[]): OperationRule {
  const parameters = [...pathParameters, ...(operation.parameters ?? [])];
  const v1 = parameters.some((p) => p.in === 'header' && p.required === true && p.name?.toLowerCase() === APPLICATION_TYPE_HEADER);
  const scope = operation.security?.find((requirement) => BEARER_SCHEME in requirement)?.[BEARER_SCHEME]?.[0];
  return scope ? { scope, v1 } : { v1 };
}

/**
 * The routes a service's public OpenAPI document declares: each path (its `{parameters}` one
 * segment each), and per method the scope its bearer requirement lists and whether it is of the
 * v1 family (`ipp-application-type` required). `/internal/...` paths are dropped even if listed.
 */
export function routesFromDocument(upstream: UpstreamName, document: OpenApiDoc): RouteRule[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(paths)
    .filter(([template]) => template.startsWith('/') && !INTERNAL_PATH.test(template))
    .map(([template, item]) => {
      const pathParameters = (item['parameters'] as Parameter[] | undefined) ?? [];
      const operations: Record<string, OperationRule> = {};
      for (const method of METHODS) {
        const operation = item[method] as Operation | undefined;
        if (operation) operations[method.toUpperCase()] = ruleOf(operation, pathParameters);
      }
      const literals = template.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length;
      return { upstream, template, pattern: patternOf(template), literals, operations };
    });
}
