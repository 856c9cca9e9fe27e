export const SUBSCRIPTION_SETTINGS = Symbol('SUBSCRIPTION_SETTINGS');
export interface SubscriptionSettings {
  allowPrivateTargets: boolean;
  /** How long the previous secret keeps signing after a rotation. */
  secretOverlapMs: number;
  /** Host resolution for the URL check (tests replace it). */
  resolveHost?: (host: string) => Promise<string[]>;
}
