import type { DeployedApp } from '../catalog';
import { alertConcerns } from './alert-rules';
import { dashboards } from './dashboards';
import { promqlNames, withoutGrafanaVariables } from './promql-names';
import { isAlert } from './rules-model';

/** Sample name -> the label names it carries, from Prometheus text expositions. */
export type ExportedNames = Map<string, Set<string>>;

/** Reads the names of a `/metrics` body into `into` (sample names as written, labels per sample). */
export function readExposition(text: string, into: ExportedNames = new Map()): ExportedNames {
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s/.exec(line);
    if (!match) continue;
    const labels = into.get(match[1] as string) ?? new Set<string>();
    for (const pair of (match[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g)) labels.add(pair[1] as string);
    into.set(match[1] as string, labels);
  }
  return into;
}

/** Labels Prometheus adds to every scraped series (the PodMonitor's target labels, and `up`'s). */
export const TARGET_LABELS = ['namespace', 'job', 'pod', 'instance', 'container', 'endpoint'];
/**
 * Series the rules read that no service exports: kube-state-metrics' (with the labels it gives
 * them) and Prometheus's own `up`. Anything else a query names must come from a service's /metrics.
 */
export const EXTERNAL_SERIES: Record<string, string[]> = {
  kube_job_failed: ['job_name', 'condition'],
  kube_pod_container_status_restarts_total: [],
  kube_pod_container_status_last_terminated_reason: ['reason'],
  up: [],
};

/** Every query of the alert rules and dashboards, with where it is. */
export function monitoringQueries(apps: DeployedApp[]): Array<{ where: string; expr: string; legend?: string }> {
  const rules = alertConcerns(apps).flatMap((concern) =>
    concern.groups.flatMap((group) => group.rules.map((rule) => ({ where: `${group.name}/${isAlert(rule) ? rule.alert : rule.record}`, expr: rule.expr }))),
  );
  const panels = [...dashboards(apps)].flatMap(([file, dashboard]) =>
    dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `${file}/${panel.title}`, expr: target.expr, legend: target.legendFormat }))),
  );
  return [...rules, ...panels];
}

/**
 * The names the queries use that nothing exports: a metric no service (nor a recording rule, nor
 * kube-state-metrics, nor Prometheus) has; a label matched or grouped on that none of the
 * queried metrics carries; a legend naming a label the query does not keep.
 */
export function unknownNames(queries: Array<{ where: string; expr: string; legend?: string }>, exported: ExportedNames, apps: DeployedApp[]): string[] {
  const known = new Map<string, Set<string>>(exported);
  for (const [name, labels] of Object.entries(EXTERNAL_SERIES)) known.set(name, new Set(labels));
  // Recording rules: their names, with the labels they keep (their `by`).
  for (const group of alertConcerns(apps).flatMap((c) => c.groups)) {
    for (const rule of group.rules) {
      if (isAlert(rule)) continue;
      known.set(rule.record, new Set(promqlNames(rule.expr).groupings.map((g) => g.label)));
    }
  }
  const has = (metric: string, label: string) => TARGET_LABELS.includes(label) || label === '__name__' || (known.get(metric)?.has(label) ?? false);
  const problems: string[] = [];
  for (const { where, expr, legend } of queries) {
    const names = promqlNames(withoutGrafanaVariables(expr));
    for (const [metric, labels] of names.selectors) {
      if (!known.has(metric)) problems.push(`${where}: metric ${metric} is exported by no service`);
      else for (const label of labels) if (!has(metric, label)) problems.push(`${where}: ${metric} has no label ${label}`);
    }
    for (const { label, metrics } of names.groupings) {
      if (!metrics.some((metric) => has(metric, label))) problems.push(`${where}: grouping label ${label} is on none of ${metrics.join(', ')}`);
    }
    const kept = new Set(names.groupings.map((g) => g.label));
    for (const match of (legend ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
      if (!kept.has(match[1] as string)) problems.push(`${where}: legend {{${match[1]}}} is not kept by the query`);
    }
  }
  return problems;
}
