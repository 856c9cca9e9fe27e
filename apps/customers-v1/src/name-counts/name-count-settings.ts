/** The settings of kept name counts (CUSTOMER_NAME_COUNT_* in CustomersConfig), provided to NameCountsModule. */
export const NAME_COUNT_SETTINGS = Symbol('NAME_COUNT_SETTINGS');

export interface NameCountSettings {
  /** The exact count of a `name` fragment at which it earns kept counts. */
  minMatches: number;
  /** How many fragments a company keeps counts of (0: none); the least recently used goes first. */
  perCompany: number;
  /** Once a company keeps `perCompany`, a new fragment replaces one at most this often, across replicas (0: no limit). */
  replaceIntervalMs: number;
}
