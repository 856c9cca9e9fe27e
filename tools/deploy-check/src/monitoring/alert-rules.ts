import type { DeployedApp } from '../catalog';
import { type AlertRule, type Concern, type RuleGroup, runbookUrl } from './rules-model';

/**
 * The HTTP service-level objectives, per route of every app: 99.9 % of requests answer without a
 * 5xx, and 99 % within 1 s. Routes that stream file bodies are left out of the latency objective:
 * their time is the file's size over the client's bandwidth. Health and metrics routes are in
 * neither (they are the probes', not the users').
 */
export const HTTP_SLO = { availability: 0.999, latency: { objective: 0.99, thresholdSeconds: 1 } };
const NOT_PROBES = 'route!~"/health/.*|/metrics"';
export const LATENCY_EXEMPT_ROUTES = '.*/[Aa]ttachment.*';
/**
 * Multi-window, multi-burn-rate alerts (Google's "Alerting on SLOs"): a fast burn pages when the
 * last hour and the last 5 minutes both spend the error budget 14.4 times too fast (2 % of a
 * 30-day budget in an hour); a slow burn opens a ticket at 6 times over 6 hours and 30 minutes.
 */
export const BURN_WINDOWS = [
  { severity: 'critical', long: '1h', short: '5m', factor: 14.4, for: '2m' },
  { severity: 'warning', long: '6h', short: '30m', factor: 6, for: '15m' },
] as const;
/** A route needs this many requests per second over the long window to be judged (1 a minute). */
export const MIN_ROUTE_RATE = 1 / 60;
const WINDOWS = ['5m', '30m', '1h', '6h'];
const BY = 'namespace, job, route';

function alert(
  name: string,
  rule: Omit<AlertRule, 'alert' | 'annotations'> & { summary: string; description: string },
): AlertRule {
  const { summary, description, ...rest } = rule;
  return { alert: name, ...rest, annotations: { summary, description, runbook_url: runbookUrl(name) } };
}

/** A concern of one group of alerts, named `erp-<name>`. */
const concern = (name: string, rules: AlertRule[]): Concern => ({
  name,
  groups: [{ name: `erp-${name}`, rules }],
});

function httpSlo(): Concern {
  const requests = (w: string) =>
    `sum by (${BY}) (rate(http_request_duration_seconds_count{${NOT_PROBES}}[${w}]))`;
  const recording: RuleGroup = {
    name: 'erp-http-slo.recording',
    rules: WINDOWS.flatMap((w) => [
      { record: `namespace_job_route:http_requests:rate${w}`, expr: requests(w) },
      {
        record: `namespace_job_route:http_request_errors:ratio_rate${w}`,
        expr: `sum by (${BY}) (rate(http_request_duration_seconds_count{${NOT_PROBES},status_code=~"5.."}[${w}])) / ${requests(w)}`,
      },
      {
        record: `namespace_job_route:http_requests_slow:ratio_rate${w}`,
        expr:
          `1 - sum by (${BY}) (rate(http_request_duration_seconds_bucket{${NOT_PROBES},route!~"${LATENCY_EXEMPT_ROUTES}",le="${HTTP_SLO.latency.thresholdSeconds}"}[${w}]))` +
          ` / sum by (${BY}) (rate(http_request_duration_seconds_count{${NOT_PROBES},route!~"${LATENCY_EXEMPT_ROUTES}"}[${w}]))`,
      },
    ]),
  };
  const burn = (name: string, ratio: string, budget: number, what: string) =>
    BURN_WINDOWS.map((w) =>
      alert(name, {
        expr:
          `namespace_job_route:${ratio}:ratio_rate${w.long} > ${w.factor * budget}` +
          ` and namespace_job_route:${ratio}:ratio_rate${w.short} > ${w.factor * budget}` +
          ` and namespace_job_route:http_requests:rate${w.long} > ${MIN_ROUTE_RATE}`,
        for: w.for,
        labels: { severity: w.severity, window: w.long },
        summary: `{{ $labels.job }} ${what} on {{ $labels.route }}: the error budget burns ${w.factor}x too fast`,
        description:
          `{{ $labels.job }} {{ $labels.route }}: {{ $value | humanizePercentage }} of requests ${what} over ${w.long} ` +
          `(and over ${w.short}); the objective allows ${(budget * 100).toFixed(1)} %.`,
      }),
    );
  return {
    name: 'http-slo',
    groups: [
      recording,
      {
        name: 'erp-http-slo.alerts',
        rules: [
          ...burn('ErpHttpErrorBudgetBurn', 'http_request_errors', 1 - HTTP_SLO.availability, 'answer 5xx'),
          ...burn(
            'ErpHttpLatencyBudgetBurn',
            'http_requests_slow',
            1 - HTTP_SLO.latency.objective,
            `take over ${HTTP_SLO.latency.thresholdSeconds} s`,
          ),
        ],
      },
    ],
  };
}

const outbox = concern('outbox', [
  // Every replica reports its database's backlog: max, not sum.
  alert('ErpOutboxEventsDelayed', {
    expr: 'max by (namespace, job) (outbox_oldest_pending_age_seconds) > 120',
    for: '5m',
    labels: { severity: 'critical' },
    summary: '{{ $labels.job }}: events wait in the outbox for Kafka',
    description:
      'The oldest unpublished event of {{ $labels.job }} is {{ $value | humanizeDuration }} old; the relay publishes within seconds when Kafka is reachable.',
  }),
  alert('ErpOutboxBacklogGrowing', {
    expr: 'max by (namespace, job) (outbox_pending_events) > 1000 and max by (namespace, job) (deriv(outbox_pending_events[10m])) > 0',
    for: '10m',
    labels: { severity: 'warning' },
    summary: '{{ $labels.job }}: the outbox backlog keeps growing',
    description: '{{ $value }} events of {{ $labels.job }} are not published yet and the number rises.',
  }),
]);

const consumers = concern('kafka-consumers', [
  // A partition a replica no longer owns keeps its last value there: max per partition first.
  alert('ErpConsumerLagHigh', {
    expr: 'sum by (namespace, job, group, topic) (max by (namespace, job, group, topic, partition) (kafka_consumer_lag_messages)) > 1000',
    for: '15m',
    labels: { severity: 'warning' },
    summary: '{{ $labels.group }} is {{ $value }} messages behind on {{ $labels.topic }}',
    description:
      'Consumer group {{ $labels.group }} of {{ $labels.job }} has had over 1000 unhandled messages on {{ $labels.topic }} for 15 minutes.',
  }),
  alert('ErpConsumerDeadLetters', {
    expr: 'sum by (namespace, job, group) (increase(kafka_consumer_dead_letters_total[10m])) > 0',
    labels: { severity: 'warning' },
    summary: '{{ $labels.group }} dead-lettered messages',
    description:
      'Consumer group {{ $labels.group }} of {{ $labels.job }} parked about {{ printf "%.0f" $value }} messages on a dead-letter topic in 10 minutes: their effects are missing until they are replayed.',
  }),
]);

const webhooks = concern('webhooks', [
  alert('ErpWebhookDeliveriesFailing', {
    expr:
      'sum by (namespace, job) (rate(webhook_delivery_attempts_total{outcome=~"retry|failed"}[15m]))' +
      ' / sum by (namespace, job) (rate(webhook_delivery_attempts_total[15m])) > 0.25' +
      ' and sum by (namespace, job) (rate(webhook_delivery_attempts_total[15m])) > 0.05',
    for: '15m',
    labels: { severity: 'warning' },
    summary: 'Over a quarter of webhook deliveries fail',
    description:
      '{{ $value | humanizePercentage }} of webhook delivery attempts failed in the last 15 minutes, across subscriptions.',
  }),
  alert('ErpWebhookDeliveriesGivenUp', {
    expr: 'sum by (namespace, job) (increase(webhook_delivery_attempts_total{outcome="failed"}[1h])) > 0',
    labels: { severity: 'info' },
    summary: 'Webhook deliveries ran out of retries',
    description:
      '{{ $value }} webhook deliveries failed their last retry in the last hour; they stay replayable.',
  }),
  alert('ErpWebhookSubscriptionsDisabled', {
    expr:
      'max by (namespace, job) (webhook_subscriptions{state="disabled_failing"})' +
      ' - max by (namespace, job) (webhook_subscriptions{state="disabled_failing"} offset 1h) > 0',
    labels: { severity: 'warning' },
    summary: 'The publisher disabled webhook subscriptions',
    description:
      '{{ $value }} more subscriptions were turned off by the publisher in the last hour (a 410, or every delivery failing for days).',
  }),
]);

const databasePool = concern('database-pool', [
  alert('ErpDatabasePoolSaturated', {
    expr:
      'sum by (namespace, job, pod) (db_client_connections_usage{state="used"})' +
      ' / sum by (namespace, job, pod) (db_client_connections_max) >= 0.9',
    for: '10m',
    labels: { severity: 'warning' },
    summary: '{{ $labels.pod }} uses nearly all its database connections',
    description:
      '{{ $labels.pod }} ({{ $labels.job }}) has had {{ $value | humanizePercentage }} of its pool checked out for 10 minutes.',
  }),
  alert('ErpDatabasePoolQueueing', {
    expr: 'max by (namespace, job, pod) (min_over_time(db_client_connections_pending_requests[5m])) > 0',
    for: '5m',
    labels: { severity: 'critical' },
    summary: '{{ $labels.pod }}: queries wait for a database connection',
    description:
      'For 10 minutes {{ $labels.pod }} ({{ $labels.job }}) always had queries queued for a connection (at least {{ $value }}).',
  }),
]);

/** kube-state-metrics series: the migration Jobs and the app containers, found by name. */
function pods(apps: DeployedApp[]): Concern {
  const names = apps.map((app) => app.name).join('|');
  const appPods = `pod=~"(${names})-[a-z0-9]+-[a-z0-9]+",container="app"`;
  return concern('pods', [
    alert('ErpMigrationJobFailed', {
      expr: `max by (namespace, job_name) (kube_job_failed{job_name=~"(${names})-migrate",condition="true"}) > 0`,
      labels: { severity: 'critical' },
      summary: 'Migration Job {{ $labels.job_name }} failed',
      description:
        'The migration Job {{ $labels.job_name }} failed: the new release must not start on an unmigrated database.',
    }),
    alert('ErpContainerRestarting', {
      expr: `max by (namespace, pod, container) (increase(kube_pod_container_status_restarts_total{${appPods}}[30m])) >= 3`,
      labels: { severity: 'warning' },
      summary: '{{ $labels.pod }} restarted {{ $value }} times in 30 minutes',
      description:
        'The app container of {{ $labels.pod }} keeps restarting (crash, failed liveness probe or OOM kill).',
    }),
    alert('ErpContainerOOMKilled', {
      expr:
        `max by (namespace, pod, container) (kube_pod_container_status_last_terminated_reason{${appPods},reason="OOMKilled"}) == 1` +
        ` and on (namespace, pod, container) increase(kube_pod_container_status_restarts_total{${appPods}}[15m]) > 0`,
      labels: { severity: 'warning' },
      summary: '{{ $labels.pod }} was killed for memory',
      description: 'The app container of {{ $labels.pod }} exceeded its memory limit and was restarted.',
    }),
    alert('ErpMetricsTargetDown', {
      expr: `up{job=~"${names}"} == 0`,
      for: '5m',
      labels: { severity: 'warning' },
      summary: '{{ $labels.instance }} of {{ $labels.job }} cannot be scraped',
      description:
        'Prometheus has not scraped {{ $labels.instance }} for 5 minutes: the pod is down, or the network policy keeps Prometheus from its metrics port.',
    }),
  ]);
}

/** Every concern's rules; each becomes a PrometheusRule `erp-<name>` and `docker/monitoring/rules/<name>.yaml`. */
export function alertConcerns(apps: DeployedApp[]): Concern[] {
  return [httpSlo(), outbox, consumers, webhooks, databasePool, pods(apps)];
}
