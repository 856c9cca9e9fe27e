export const CUSTOMER_STATUSES = ['Active', 'OnHold', 'CreditHold', 'Inactive', 'OneTime'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
