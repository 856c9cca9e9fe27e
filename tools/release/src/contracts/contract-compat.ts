import type { BreakingChange } from './breaking-change';
import { eventBreakingChanges } from './event-compat';
import { httpBreakingChanges } from './http-compat';
import type { ReleaseContracts } from './recorded-contracts';
import { webhookBreakingChanges } from './webhook-compat';

/** Every breaking change from one release's contracts to another's (or the working tree's). */
export function breakingChanges(before: Partial<ReleaseContracts>, after: Partial<ReleaseContracts>): BreakingChange[] {
  return [
    ...(before.openapi && after.openapi ? httpBreakingChanges(before.openapi, after.openapi).map((c) => ({ contract: 'http' as const, ...c })) : []),
    ...(before.asyncapi && after.asyncapi ? eventBreakingChanges(before.asyncapi, after.asyncapi).map((c) => ({ contract: 'events' as const, ...c })) : []),
    ...(before.webhooks && after.webhooks ? webhookBreakingChanges(before.webhooks, after.webhooks).map((c) => ({ contract: 'webhooks' as const, ...c })) : []),
  ];
}
