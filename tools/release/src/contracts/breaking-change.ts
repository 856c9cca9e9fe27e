/** Which published contract a breaking change is in. */
export type ContractKind = 'http' | 'events' | 'webhooks';

/** One breaking change, named so that a reader knows what broke and where. */
export interface BreakingChange {
  contract: ContractKind;
  /** Where: `POST /api/v3/SalesOrders`, `SALESORDER_UPDATED`, `erp.customers.customer.v1`... */
  where: string;
  /** What: the diff library's description, or the rule of ours that caught it. */
  what: string;
}

/** One line per change, for test failures and the recorder's report. */
export function describeBreakingChanges(changes: readonly BreakingChange[]): string[] {
  return changes.map((change) => `${change.contract}: ${change.where}: ${change.what}`);
}
