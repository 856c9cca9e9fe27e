/** A subscription as the API shows it (never with its secret, except once at creation). */
export interface SubscriptionView {
  id: string;
  publisher: string;
  eventTypes: string[];
  url: string;
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  /** While a rotation overlaps: when the previous secret stops signing. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The creation's answer: the only one that shows the secret. */
export type CreatedSubscription = SubscriptionView & { secret: string };

export interface RotatedSecret {
  id: string;
  secret: string;
  previousSecretExpiresAt: string;
}

/** One attempt in the delivery log. */
export interface DeliveryAttemptView {
  id: string;
  eventId: string;
  eventType: string;
  webhookId: string;
  attempt: number;
  attemptedAt: string;
  status: 'delivered' | 'failed';
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface Page<T> {
  value: T[];
  totalCount: number;
  nextPage: string | null;
}

export interface ReplayQueued {
  queued: number;
  since: string;
  until: string;
}
