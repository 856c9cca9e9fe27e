import { dropDatabase } from '@erp/database';
import type { RunningSystem } from '@erp/dev';
import { testSystemBuild } from '@erp/dev/testing';
import { testDatabaseName, testDatabaseServerUrl, testKafkaBrokers } from '@erp/testing';
import { markdownReport } from '../framework/report';
import { runScenarios, startBenchSystem } from '../framework/run-bench';
import { webhookLatencyScenario } from './webhook-latency.scenario';

let system: RunningSystem;
const databases: string[] = [];

/** Scenario 5 at a tiny rate against the real system: it must not rot between full runs. */
describe('bench scenario webhook-latency against the real system', () => {
  beforeAll(async () => {
    system = await startBenchSystem({
      databaseServerUrl: testDatabaseServerUrl(),
      databaseName: (name) => {
        const unique = testDatabaseName(`bench_wh_${name}`);
        databases.push(unique);
        return unique;
      },
      kafkaBrokers: testKafkaBrokers(),
      // As every e2e system: the image builds under the e2e target (TEST_SYSTEM_BUILD), the source otherwise.
      build: testSystemBuild(),
      services: webhookLatencyScenario.services,
      systemEnv: { LOG_LEVEL: 'warn' },
    });
  }, 180_000);

  afterAll(async () => {
    await system?.stop();
    for (const name of databases) await dropDatabase(testDatabaseServerUrl(), name);
  });

  it('times every PATCH to its verified webhook and reports latency, rate, CPU and RSS per process', async () => {
    const results = await runScenarios(system, {
      scenarios: [webhookLatencyScenario],
      load: { connections: 1, durationSeconds: 1, warmupSeconds: 0, rounds: 1 },
      options: { 'webhooks.rate': '10', 'webhooks.seconds': '2', 'webhooks.orders': '5', 'webhooks.warmup': '0' },
    });
    const [report] = results.scenarios;
    expect(report.scenario).toBe('webhook-latency');
    const [only] = report.cases;
    expect(only.name).toBe('10/s');
    expect(only.facts).toMatchObject({ rate: 10, missing: 0 });
    const [measurement] = only.measurements;
    expect(measurement.requests).toBeGreaterThanOrEqual(10);
    expect(measurement.errors + measurement.non2xx).toBe(0);
    expect(measurement.p50Ms).toBeGreaterThan(0);
    expect(measurement.p99Ms).toBeGreaterThanOrEqual(measurement.p50Ms);
    expect(Object.keys(measurement.cpuMsPerRequest ?? {})).toEqual(expect.arrayContaining(['webhook-publisher', 'sales-orders-v3']));
    expect(only.memory['webhook-publisher']?.peakRssMiB).toBeGreaterThan(0);
    expect(report.targets.map((t) => t.description)).toEqual([
      'p99 PATCH commit -> receiver at 10/s (ms)',
      'events/s delivered / events/s asked',
      'webhooks missing',
    ]);
    expect(report.targets.find((t) => t.description === 'webhooks missing')?.met).toBe(true);
    // It renders into the bench's markdown table like every other scenario.
    expect(markdownReport(results)).toContain('### webhook-latency: `PATCH commit -> signed webhook at the receiver, steady rate`');
  }, 240_000);
});
