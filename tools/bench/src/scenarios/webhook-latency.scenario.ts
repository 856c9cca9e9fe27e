import type { LoadMeasurement } from '../framework/load';
import { check, type BenchScenario, type ScenarioCase } from '../framework/scenario';
import { runWebhookLatency, type WebhookLatencyResult } from './webhook-latency.drive';

/** The issue's target: p99 under 500 ms at 200 events/s. */
export const WEBHOOK_P99_LIMIT_MS = 500;

/**
 * Scenario 5: event latency from a committed `PATCH /api/v3/SalesOrders/...` to a webhook
 * receiver, at a steady rate (see webhook-latency.drive.ts for what is timed). Options:
 * `--webhooks.rate=200` (PATCHes = events per second), `--webhooks.seconds=20` (measured),
 * `--webhooks.orders=200` (orders PATCHed round-robin), `--webhooks.warmup=3` (seconds).
 */
export const webhookLatencyScenario: BenchScenario = {
  name: 'webhook-latency',
  title: 'PATCH commit -> signed webhook at the receiver, steady rate',
  services: ['customers-v1', 'sales-orders-v3', 'webhook-publisher'],
  async run(context) {
    const option = (name: string, fallback: number) => Number(context.options[`webhooks.${name}`] ?? fallback);
    const rate = option('rate', 200);
    const result = await runWebhookLatency({
      baseUrl: context.gatewayUrl,
      publisherDatabaseUrl: context.databaseUrls['webhook-publisher'],
      keys: context.keys,
      pids: context.pids,
      rate,
      seconds: option('seconds', 20),
      // One PATCH per order per second at the default rate: an order's PATCHes go in sequence.
      orders: option('orders', rate),
      warmupSeconds: option('warmup', 3),
      log: context.log,
    });
    context.log(
      `webhook-latency: ${result.measured} events at ${result.achievedRate}/s sent, ${result.deliveredPerSecond}/s delivered; ` +
        `p50 ${result.latency.p50Ms} ms  p95 ${result.latency.p95Ms} ms  p99 ${result.latency.p99Ms} ms  missing ${result.missing}`,
    );
    const cases = [webhookLatencyCase(result)];
    return {
      scenario: this.name,
      title: this.title,
      cases,
      targets: [
        check(`p99 PATCH commit -> receiver at ${rate}/s (ms)`, result.latency.p99Ms, '<=', WEBHOOK_P99_LIMIT_MS),
        // A latency figure means little if the rate was not held or events went missing.
        check('events/s delivered / events/s asked', result.deliveredPerSecond / rate, '>=', 0.95),
        check('webhooks missing', result.missing + result.unverified, '<=', 0),
      ],
      notes: [
        `p95 ${result.latency.p95Ms} ms, max ${result.latency.maxMs} ms; PATCH answers ${JSON.stringify(result.patchStatuses)}, ` +
          `${result.skippedBusyOrders} PATCHes skipped (order still busy); ` +
          `stages p99: ${Object.entries(result.stages)
            .map(([stage, s]) => `${stage} ${s.p99Ms} ms`)
            .join(', ')}`,
        `CPU ms per event: ${Object.entries(result.cpuMsPerEvent)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(', ')}`,
      ],
    };
  },
};

/** The run as the report's case: one "target" whose rate is webhooks delivered per second. */
export function webhookLatencyCase(result: WebhookLatencyResult): ScenarioCase {
  const measurement: LoadMeasurement = {
    target: 'PATCH -> receiver',
    requests: result.measured,
    rps: result.deliveredPerSecond,
    p50Ms: result.latency.p50Ms,
    p99Ms: result.latency.p99Ms,
    meanMs: result.latency.meanMs,
    errors: result.missing,
    non2xx: result.unverified,
    bytesPerSecond: 0,
    durationSeconds: result.durationSeconds,
    cpuMsPerRequest: result.cpuMsPerEvent,
  };
  return {
    name: `${result.rate}/s`,
    facts: {
      rate: result.rate,
      achievedRate: result.achievedRate,
      deliveredPerSecond: result.deliveredPerSecond,
      orders: result.orders,
      p95Ms: result.latency.p95Ms,
      maxMs: result.latency.maxMs,
      skippedBusyOrders: result.skippedBusyOrders,
      missing: result.missing,
    },
    measurements: [measurement],
    ratios: {},
    memory: result.memory,
  };
}
