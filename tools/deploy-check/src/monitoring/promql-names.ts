import { parser } from '@prometheus-io/lezer-promql';

/** A node of the parser's syntax tree (the type the parser itself returns). */
type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

/** What a PromQL expression relies on: each metric with the labels it is filtered by, and grouping labels. */
export interface PromqlNames {
  /** Metric name -> labels named in its selector's matchers. */
  selectors: Map<string, Set<string>>;
  /** Labels of `by`/`without`/`on`/`ignoring`/`group_left`/`group_right`, each with the metrics it groups. */
  groupings: Array<{ label: string; metrics: string[] }>;
}

/**
 * Grafana's variables in a dashboard query, replaced by values of the same kind so the text parses
 * as PromQL (`$__rate_interval` is a duration; `$namespace` is a label value inside quotes).
 */
export function withoutGrafanaVariables(expr: string): string {
  return expr.replace(/\$__(rate_)?interval|\$__range/g, '5m').replace(/\$\{?(\w+)\}?/g, 'grafana_variable_$1');
}

/**
 * The names an expression uses, read from the syntax tree of Prometheus's own PromQL grammar
 * (@prometheus-io/lezer-promql, the parser of Prometheus's web UI). Throws on a syntax error, so a
 * query that Prometheus would refuse fails here too.
 */
export function promqlNames(expr: string): PromqlNames {
  const tree = parser.parse(expr);
  const names: PromqlNames = { selectors: new Map(), groupings: [] };
  const text = (node: SyntaxNode) => expr.slice(node.from, node.to);
  const unquote = (literal: string) => literal.slice(1, -1);
  tree.iterate({
    enter: (ref) => {
      if (ref.type.isError) throw new Error(`PromQL syntax error at ${ref.from} in: ${expr}`);
      if (ref.name === 'VectorSelector') {
        const node = ref.node;
        const identifier = node.getChild('Identifier');
        const labels = new Set<string>();
        let metric = identifier ? text(identifier) : '';
        for (const matcher of node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
          const label = matcher.getChild('LabelName');
          if (label) labels.add(text(label));
        }
        // `{"metric_name", "label"="v"}`: the 3.x quoted form, where a bare string is the name.
        for (const matcher of node.getChild('LabelMatchers')?.getChildren('QuotedLabelMatcher') ?? []) {
          const label = matcher.getChild('QuotedLabelName');
          if (label) labels.add(unquote(text(label)));
        }
        for (const quoted of node.getChild('LabelMatchers')?.getChildren('QuotedLabelName') ?? []) metric = unquote(text(quoted));
        const known = names.selectors.get(metric) ?? new Set<string>();
        for (const label of labels) known.add(label);
        names.selectors.set(metric, known);
      }
      if (ref.name === 'GroupingLabels') {
        const scope = enclosing(ref.node, ['AggregateExpr', 'BinaryExpr']);
        const metrics = scope ? selectorsUnder(scope, text) : [];
        for (const label of ref.node.getChildren('LabelName')) names.groupings.push({ label: text(label), metrics });
      }
      return undefined;
    },
  });
  return names;
}

function enclosing(node: SyntaxNode, kinds: string[]): SyntaxNode | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) if (kinds.includes(parent.name)) return parent;
  return undefined;
}

function selectorsUnder(scope: SyntaxNode, text: (node: SyntaxNode) => string): string[] {
  const metrics: string[] = [];
  const cursor = scope.cursor();
  const end = scope.to;
  do {
    if (cursor.from >= end) break;
    if (cursor.name === 'VectorSelector') {
      const identifier = cursor.node.getChild('Identifier');
      if (identifier) metrics.push(text(identifier));
    }
  } while (cursor.next());
  return metrics;
}
