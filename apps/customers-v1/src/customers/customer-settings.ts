/** The customers service's settings that use cases read (from CustomersConfig, provided by the app module). */
export const CUSTOMER_SETTINGS = Symbol('CUSTOMER_SETTINGS');

export interface CustomerSettings {
  maxPageSize: number;
  /**
   * Kept name counts (CustomerNameCounts): the matches that earn a fragment counts, how many a company
   * keeps, and how often a new one may replace one of them.
   */
  nameCounts: { minMatches: number; perCompany: number; replaceIntervalMs: number };
}
