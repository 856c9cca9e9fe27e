import { deployedApps } from '../catalog';
import { monitoringQueries, readExposition, unknownNames } from './query-check';

const apps = deployedApps();
const exposition = [
  '# HELP http_request_duration_seconds x',
  '# TYPE http_request_duration_seconds histogram',
  'http_request_duration_seconds_bucket{le="1",method="GET",route="/v1/customer",status_code="200"} 3',
  'http_request_duration_seconds_count{method="GET",route="/v1/customer",status_code="200"} 3',
  'outbox_pending_events{service="customers-v1"} 0',
  'process_cpu_seconds_total 1.5',
].join('\n');

describe('the query check (what the whole-system test runs against every /metrics)', () => {
  const exported = readExposition(exposition);

  it('reads sample names and their labels from an exposition', () => {
    expect(exported.get('http_request_duration_seconds_bucket')).toEqual(new Set(['le', 'method', 'route', 'status_code']));
    expect(exported.get('process_cpu_seconds_total')).toEqual(new Set());
  });

  it('accepts what is exported, target labels, recording rules and kube-state-metrics', () => {
    const queries = [
      { where: 'a', expr: 'sum by (namespace, job, route) (rate(http_request_duration_seconds_count{status_code=~"5.."}[5m]))', legend: '{{route}}' },
      { where: 'b', expr: 'max by (job) (outbox_pending_events{namespace="$namespace"})' },
      { where: 'c', expr: 'namespace_job_route:http_requests:rate1h > 1' },
      { where: 'd', expr: 'kube_job_failed{job_name="x",condition="true"} > 0' },
    ];
    expect(unknownNames(queries, exported, apps)).toEqual([]);
  });

  it('names a misspelt metric, a label a metric does not carry, a grouping on nothing and a legend not kept', () => {
    const queries = [
      { where: 'a', expr: 'outbox_pending_event > 0' },
      { where: 'b', expr: 'http_request_duration_seconds_count{routee="/x"}' },
      { where: 'c', expr: 'sum by (group) (outbox_pending_events)' },
      { where: 'd', expr: 'sum by (job) (outbox_pending_events)', legend: '{{pod}}' },
    ];
    expect(unknownNames(queries, exported, apps)).toEqual([
      'a: metric outbox_pending_event is exported by no service',
      'b: http_request_duration_seconds_count has no label routee',
      'c: grouping label group is on none of outbox_pending_events',
      'd: legend {{pod}} is not kept by the query',
    ]);
  });

  it('refuses a query that does not parse as PromQL', () => {
    expect(() => unknownNames([{ where: 'x', expr: 'sum by (job (foo)' }], exported, apps)).toThrow(/PromQL syntax error/);
  });

  it('covers every rule and every dashboard panel', () => {
    const queries = monitoringQueries(apps);
    expect(queries.filter((q) => q.where.includes('.json/')).length).toBeGreaterThan(40);
    expect(queries.filter((q) => q.where.startsWith('erp-')).length).toBeGreaterThan(25);
  });
});
