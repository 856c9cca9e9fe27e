import type { DeployedApp } from '../catalog';

/** A Grafana dashboard (JSON model, schemaVersion 39), as data. */
export type Dashboard = Record<string, unknown> & { uid: string; title: string; panels: Panel[] };
type Panel = Record<string, unknown> & { title: string; targets?: Array<{ expr: string; legendFormat?: string }> };

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };
/** Every query is scoped to the dashboard's namespace (`$namespace`) and the app's job. */
const scope = (job: string, extra = '') => `namespace="$namespace",job="${job}"${extra}`;

let nextId = 1;
function timeseries(title: string, unit: string, targets: Array<[expr: string, legend: string]>, description: string): Panel {
  return {
    id: nextId++,
    type: 'timeseries',
    title,
    description,
    datasource: DATASOURCE,
    fieldConfig: { defaults: { unit }, overrides: [] },
    options: { legend: { displayMode: 'table', placement: 'bottom', calcs: ['lastNotNull', 'max'] }, tooltip: { mode: 'multi' } },
    targets: targets.map(([expr, legendFormat], index) => ({ refId: String.fromCharCode(65 + index), datasource: DATASOURCE, expr, legendFormat })),
  };
}
const row = (title: string): Panel => ({ id: nextId++, type: 'row', title, collapsed: false, panels: [] });

/** Lays panels out two to a row of 24 columns, rows across the whole width. */
function layout(panels: Panel[]): Panel[] {
  let y = 0;
  let x = 0;
  return panels.map((panel) => {
    if (panel.type === 'row') {
      if (x > 0) y += 8;
      x = 0;
      return { ...panel, gridPos: { x: 0, y: y++, w: 24, h: 1 } };
    }
    const placed = { ...panel, gridPos: { x, y, w: 12, h: 8 } };
    x += 12;
    if (x >= 24) {
      x = 0;
      y += 8;
    }
    return placed;
  });
}

function dashboard(uid: string, title: string, panels: Panel[], tags: string[]): Dashboard {
  return {
    uid,
    title,
    tags: ['erp', ...tags],
    schemaVersion: 39,
    editable: true,
    time: { from: 'now-6h', to: 'now' },
    refresh: '1m',
    templating: {
      list: [
        { name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Data source' },
        {
          name: 'namespace',
          type: 'query',
          label: 'Namespace',
          datasource: DATASOURCE,
          query: { query: 'label_values(http_request_duration_seconds_count, namespace)', refId: 'namespace' },
          definition: 'label_values(http_request_duration_seconds_count, namespace)',
          refresh: 2,
        },
      ],
    },
    panels: layout(panels),
  };
}

/** The four golden signals of one app, and its events and pool where it has them. */
export function serviceDashboard(app: DeployedApp): Dashboard {
  const job = app.name;
  const requests = `http_request_duration_seconds_count{${scope(job)}}`;
  const panels: Panel[] = [
    row('Traffic and errors'),
    timeseries('Requests by route', 'reqps', [[`sum by (route) (rate(${requests}[$__rate_interval]))`, '{{route}}']], 'Requests per second answered, by route pattern.'),
    timeseries('5xx ratio by route', 'percentunit', [
      [`sum by (route) (rate(http_request_duration_seconds_count{${scope(job, ',status_code=~"5.."')}}[$__rate_interval])) / sum by (route) (rate(${requests}[$__rate_interval]))`, '{{route}}'],
    ], 'Share of requests answered with a 5xx; the SLO allows 0.1 % (alert ErpHttpErrorBudgetBurn).'),
    timeseries('Responses by status', 'reqps', [[`sum by (status_code) (rate(${requests}[$__rate_interval]))`, '{{status_code}}']], '4xx are the callers\' mistakes; 5xx are ours.'),
    row('Latency'),
    ...[0.5, 0.99].map((q) =>
      timeseries(`p${q * 100} latency by route`, 's', [
        [`histogram_quantile(${q}, sum by (le, route) (rate(http_request_duration_seconds_bucket{${scope(job)}}[$__rate_interval])))`, '{{route}}'],
      ], `The ${q * 100}th percentile of answer time; the SLO: 99 % within 1 s (alert ErpHttpLatencyBudgetBurn).`),
    ),
    row('Saturation'),
    timeseries('CPU per pod', 'percentunit', [[`sum by (pod) (rate(process_cpu_seconds_total{${scope(job)}}[$__rate_interval]))`, '{{pod}}']], 'CPU seconds per second; the HPA scales at 70 % of the request.'),
    timeseries('Memory per pod', 'bytes', [[`max by (pod) (process_resident_memory_bytes{${scope(job)}})`, '{{pod}}']], 'Resident set size against the container limit (the catalog\'s memoryMiB).'),
    timeseries('Event-loop lag p99 per pod', 's', [[`max by (pod) (nodejs_eventloop_lag_p99_seconds{${scope(job)}})`, '{{pod}}']], 'A busy or blocked event loop delays every request of the pod.'),
  ];
  if (app.database) {
    panels.push(
      timeseries('Database pool per pod', 'short', [
        [`sum by (pod) (db_client_connections_usage{${scope(job, ',state="used"')}})`, 'used {{pod}}'],
        [`max by (pod) (db_client_connections_max{${scope(job)}})`, 'max {{pod}}'],
        [`sum by (pod) (db_client_connections_pending_requests{${scope(job)}})`, 'waiting {{pod}}'],
      ], 'Connections checked out against DATABASE_POOL_SIZE; waiting queries mean the pool is saturated (ErpDatabasePoolSaturated, ErpDatabasePoolQueueing).'),
    );
  }
  if (app.variables.includes('KAFKA_BROKERS')) panels.push(row('Events'), ...eventPanels(job));
  if (app.name === 'webhook-publisher') panels.push(row('Webhooks'), ...webhookPanels(job));
  return dashboard(`erp-${app.name}`, `ERP / ${app.name}`, panels, ['service']);
}

function eventPanels(job: string): Panel[] {
  return [
    timeseries('Outbox: events not yet in Kafka', 'short', [[`max by (job) (outbox_pending_events{${scope(job)}})`, '{{job}}']], 'Committed events the relay has not published (ErpOutboxBacklogGrowing).'),
    timeseries('Outbox: age of the oldest', 's', [[`max by (job) (outbox_oldest_pending_age_seconds{${scope(job)}})`, '{{job}}']], 'How late the slowest event is (ErpOutboxEventsDelayed).'),
    timeseries('Consumer lag by group and topic', 'short', [
      [`sum by (group, topic) (max by (group, topic, partition) (kafka_consumer_lag_messages{${scope(job)}}))`, '{{group}} {{topic}}'],
    ], 'Messages each consumer group has not handled yet (ErpConsumerLagHigh).'),
    timeseries('Dead letters by group', 'short', [[`sum by (group) (increase(kafka_consumer_dead_letters_total{${scope(job)}}[$__rate_interval]))`, '{{group}}']], 'Messages parked on <topic>.dlq (ErpConsumerDeadLetters).'),
  ];
}

function webhookPanels(job: string): Panel[] {
  return [
    timeseries('Delivery attempts by outcome', 'ops', [[`sum by (outcome) (rate(webhook_delivery_attempts_total{${scope(job)}}[$__rate_interval]))`, '{{outcome}}']], 'delivered, retry, failed (no retry left), gone (410) (ErpWebhookDeliveriesFailing).'),
    timeseries('Subscriptions by state', 'short', [[`max by (state) (webhook_subscriptions{${scope(job)}})`, '{{state}}']], 'disabled_failing: turned off by the publisher (ErpWebhookSubscriptionsDisabled).'),
  ];
}

/** Events end to end: outbox -> Kafka -> consumers -> webhooks, every service on one page. */
export function pipelineDashboard(apps: DeployedApp[]): Dashboard {
  const jobs = apps.filter((app) => app.variables.includes('KAFKA_BROKERS')).map((app) => app.name).join('|');
  const all = `namespace="$namespace",job=~"${jobs}"`;
  return dashboard('erp-event-pipeline', 'ERP / event pipeline', [
    row('Outbox (each service, before Kafka)'),
    timeseries('Events not yet in Kafka', 'short', [[`max by (job) (outbox_pending_events{${all}})`, '{{job}}']], 'Per producing service.'),
    timeseries('Age of the oldest unpublished event', 's', [[`max by (job) (outbox_oldest_pending_age_seconds{${all}})`, '{{job}}']], 'Seconds; the relay publishes within seconds when Kafka is up.'),
    row('Consumers (after Kafka)'),
    timeseries('Consumer lag by group', 'short', [
      [`sum by (group) (max by (group, topic, partition) (kafka_consumer_lag_messages{${all}}))`, '{{group}}'],
    ], 'Messages each group has not handled yet.'),
    timeseries('Dead letters by group', 'short', [[`sum by (group) (increase(kafka_consumer_dead_letters_total{${all}}[$__rate_interval]))`, '{{group}}']], 'Messages parked for replay.'),
    row('Webhooks (the end of the pipeline)'),
    ...webhookPanels('webhook-publisher'),
  ], ['pipeline']);
}

/** Every dashboard, by file name under docker/monitoring/dashboards. */
export function dashboards(apps: DeployedApp[]): Map<string, Dashboard> {
  nextId = 1;
  const all = new Map<string, Dashboard>();
  for (const app of apps) all.set(`${app.name}.json`, serviceDashboard(app));
  all.set('event-pipeline.json', pipelineDashboard(apps));
  return all;
}
