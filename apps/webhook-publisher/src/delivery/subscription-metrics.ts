import type { DataSource } from 'typeorm';
import { defineGauge } from '@erp/observability';

/** How a subscription stands: delivering, turned off by its owner, or turned off by the publisher. */
export type SubscriptionState = 'enabled' | 'disabled' | 'disabled_failing';

let source: DataSource | undefined;

/**
 * Subscriptions of every company by state, counted at scrape time. `disabled_failing` are those
 * the publisher turned off (a 410, or every delivery failing for WEBHOOKS_DISABLE_AFTER_FAILING_MS:
 * they carry a `disabled_reason`); `disabled` are those their owner turned off. The alert on a
 * rising `disabled_failing` tells operators before the customer notices missing webhooks.
 */
export const webhookSubscriptions = defineGauge<'state'>({
  name: 'webhook_subscriptions',
  help: 'Webhook subscriptions by state: enabled, disabled (by their owner), disabled_failing (by the publisher: 410 or failing too long)',
  labelNames: ['state'],
  async collect() {
    if (!source?.isInitialized) return;
    try {
      const [row] = (await source.query(
        `SELECT count(*) FILTER (WHERE enabled)::int AS enabled,
                count(*) FILTER (WHERE NOT enabled AND disabled_reason IS NULL)::int AS disabled,
                count(*) FILTER (WHERE NOT enabled AND disabled_reason IS NOT NULL)::int AS disabled_failing
         FROM webhook_subscriptions`,
      )) as Array<Record<SubscriptionState, number>>;
      if (row) for (const state of ['enabled', 'disabled', 'disabled_failing'] as const) this.set({ state }, row[state]);
    } catch {
      // The database is unreachable: keep the last values; readiness reports the outage.
    }
  },
});

/** Counts the subscriptions of this DataSource on /metrics; returns the function that stops it. */
export function reportSubscriptions(dataSource: DataSource): () => void {
  source = dataSource;
  return () => {
    if (source === dataSource) source = undefined;
  };
}
