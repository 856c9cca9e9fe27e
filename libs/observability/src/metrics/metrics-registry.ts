import {
  collectDefaultMetrics,
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  type Metric,
  Registry,
} from 'prom-client';

/**
 * The one Prometheus registry of this process, served at `GET /metrics`. Any lib adds its series
 * with `defineCounter` / `defineGauge` / `defineHistogram` (or `metricsRegistry.registerMetric`).
 * A service is one process, so series carry no service label: Prometheus adds the target's.
 */
export const metricsRegistry = new Registry();

let processMetricsCollected = false;

/** Node.js and process series (`process_*`, `nodejs_*`); idempotent. */
export function collectProcessMetrics(): void {
  if (processMetricsCollected) return;
  processMetricsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

function define<M extends Metric<string>>(
  name: string,
  create: () => M,
  kind: new (...args: never[]) => M,
): M {
  const existing = metricsRegistry.getSingleMetric(name);
  if (existing) {
    if (!(existing instanceof kind)) throw new Error(`metric ${name} is already registered as another type`);
    return existing as M;
  }
  return create();
}

/**
 * A counter in `metricsRegistry`. Defining the same name twice returns the first one, so a module
 * imported by two apps booted in one test process does not fail with "already registered".
 */
export function defineCounter<T extends string>(
  config: Omit<CounterConfiguration<T>, 'registers'>,
): Counter<T> {
  return define(config.name, () => new Counter<T>({ ...config, registers: [metricsRegistry] }), Counter);
}

export function defineGauge<T extends string>(config: Omit<GaugeConfiguration<T>, 'registers'>): Gauge<T> {
  return define(config.name, () => new Gauge<T>({ ...config, registers: [metricsRegistry] }), Gauge);
}

export function defineHistogram<T extends string>(
  config: Omit<HistogramConfiguration<T>, 'registers'>,
): Histogram<T> {
  return define(config.name, () => new Histogram<T>({ ...config, registers: [metricsRegistry] }), Histogram);
}
