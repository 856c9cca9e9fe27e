import type { RouteRule } from './learned-routes';
import type { UpstreamName } from './routes';

/** A request's route: the rule its path matched and what the request's method must satisfy. */
export interface RouteMatch {
  rule: RouteRule;
  /** The v1 family's header rule. A method the document does not list takes its path's rule. */
  v1: boolean;
  /** The operation's scope, if its document lists one (else the caller uses the method's). */
  scope?: string;
}

/**
 * The routes the gateway has learned, per upstream, from each service's own document. A path
 * matches the rule with the most literal segments first (`/v1/attachment/{id}` before
 * `/v1/{endpoint}/{objectId}/Attachment` for a path both match), then the earlier service.
 */
export class RouteTable {
  private readonly byUpstream = new Map<UpstreamName, RouteRule[]>();
  private ordered: RouteRule[] = [];

  constructor(private readonly upstreams: readonly UpstreamName[]) {}

  /** Replaces an upstream's routes with those of its latest document. */
  learn(upstream: UpstreamName, rules: RouteRule[]): void {
    this.byUpstream.set(upstream, rules);
    const all = this.upstreams.flatMap((name) => this.byUpstream.get(name) ?? []);
    this.ordered = all.map((rule, index) => ({ rule, index })).sort((a, b) => b.rule.literals - a.rule.literals || a.index - b.index).map(({ rule }) => rule);
  }

  /** The configured upstreams whose routes are not known yet (down since the gateway started). */
  unknown(): UpstreamName[] {
    return this.upstreams.filter((name) => !this.byUpstream.has(name));
  }

  match(method: string, path: string): RouteMatch | undefined {
    const rule = this.ordered.find((candidate) => candidate.pattern.test(path));
    if (!rule) return undefined;
    const upper = method.toUpperCase();
    // HEAD is served by the GET handler (Fastify answers it); an unlisted method goes to the owner, which answers it.
    const operation = rule.operations[upper] ?? (upper === 'HEAD' ? rule.operations['GET'] : undefined);
    if (operation) return { rule, ...operation };
    return { rule, v1: Object.values(rule.operations).some((op) => op.v1) };
  }
}
