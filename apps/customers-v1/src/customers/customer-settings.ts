import type { NameCountSettings } from '../name-counts/name-count-settings';

/** The customers service's settings that use cases read (from CustomersConfig, provided by the app module). */
export const CUSTOMER_SETTINGS = Symbol('CUSTOMER_SETTINGS');

export interface CustomerSettings {
  maxPageSize: number;
  /** Kept name counts (NameCountsModule, which gets this very object). */
  nameCounts: NameCountSettings;
}
