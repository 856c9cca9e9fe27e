import { stringify } from 'yaml';
import type { DeployedApp } from '../catalog';
import { labels, type Manifest, selectorLabels } from '../kubernetes';
import { METRICS_PORT_NAME } from '../network-policies';
import { alertConcerns } from './alert-rules';
import { dashboards } from './dashboards';

/** How often the PodMonitors scrape; the rules' shortest window (5m) holds ten scrapes. */
export const SCRAPE_INTERVAL = '30s';
const PART_OF = { 'app.kubernetes.io/part-of': 'erp' };

/**
 * One PodMonitor per app: its pods' metrics port (never the Service's, which has only the API
 * port). `jobLabel` makes `job` the app's name, which every rule and dashboard groups by; the
 * annotation-scraping clusters set the same with a relabelling (docker/README.md "Monitoring").
 */
export function podMonitor(app: DeployedApp): Manifest {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PodMonitor',
    metadata: { name: app.name, labels: labels(app.name, 'api') },
    spec: {
      jobLabel: 'app.kubernetes.io/name',
      selector: { matchLabels: { ...selectorLabels(app.name), 'app.kubernetes.io/component': 'api' } },
      podMetricsEndpoints: [{ port: METRICS_PORT_NAME, path: '/metrics', interval: SCRAPE_INTERVAL }],
    },
  };
}

/** One PrometheusRule per concern (HTTP SLO, outbox, consumers, webhooks, pool, pods). */
export function prometheusRules(apps: DeployedApp[]): Manifest[] {
  return alertConcerns(apps).map((concern) => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: `erp-${concern.name}`, labels: PART_OF },
    spec: { groups: concern.groups },
  }));
}

/** The rule files of the same rules, for a Prometheus without the operator and for promtool. */
export function ruleFiles(apps: DeployedApp[]): Map<string, string> {
  return new Map(alertConcerns(apps).map((concern) => [`${concern.name}.yaml`, stringify({ groups: concern.groups }, { lineWidth: 0 })]));
}

/** The dashboards as ConfigMaps Grafana's dashboard sidecar loads (label `grafana_dashboard`). */
export function dashboardConfigMaps(apps: DeployedApp[]): Manifest[] {
  return [...dashboards(apps)].map(([file, dashboard]) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `grafana-dashboard-${file.replace(/\.json$/, '')}`, labels: { ...PART_OF, grafana_dashboard: '1' } },
    data: { [file]: `${JSON.stringify(dashboard, null, 2)}\n` },
  }));
}

/** components/monitoring: everything that needs the Prometheus Operator's CRDs, plus the dashboards. */
export function monitoringComponent(apps: DeployedApp[]): Manifest[] {
  return [...apps.map(podMonitor), ...prometheusRules(apps), ...dashboardConfigMaps(apps)];
}
