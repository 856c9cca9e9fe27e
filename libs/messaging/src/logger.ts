import type { ServiceLogger } from '@erp/observability';

// The logger interface is the one of @erp/observability, shared with the apps and the background
// loops; these names stay so that `@erp/messaging` users and the consumer code keep compiling.
export { errorMessage, SILENT_LOGGER } from '@erp/observability';

/** What the messaging classes log through: `ServiceLogger` of `@erp/observability`. */
export type MessagingLogger = ServiceLogger;
