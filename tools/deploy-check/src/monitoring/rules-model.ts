/** Prometheus rule files as data (the `groups:` of a rule file and of a PrometheusRule's spec). */
export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: 'critical' | 'warning' | 'info'; [label: string]: string };
  annotations: { summary: string; description: string; runbook_url: string };
}
export interface RecordingRule {
  record: string;
  expr: string;
}
export type Rule = AlertRule | RecordingRule;
export interface RuleGroup {
  name: string;
  interval?: string;
  rules: Rule[];
}
/** One concern's rules: one PrometheusRule object and one rule file each. */
export interface Concern {
  /** File and object name part: `erp-<name>`. */
  name: string;
  groups: RuleGroup[];
}

/**
 * Where the runbooks are read: docs/runbooks.md of the repository as the platform's Git host
 * shows it. Each alert's `runbook_url` is this plus `#<alert name in lower case>`, a heading of
 * that file (tools/deploy-check/src/monitoring/runbooks.spec.ts holds the two together).
 */
export const RUNBOOK_BASE_URL = 'https://git.example.com/erp/erp-business-api/-/blob/main/docs/runbooks.md';
export const RUNBOOKS_FILE = 'docs/runbooks.md';
export const runbookUrl = (alert: string) => `${RUNBOOK_BASE_URL}#${alert.toLowerCase()}`;

export const isAlert = (rule: Rule): rule is AlertRule => 'alert' in rule;
