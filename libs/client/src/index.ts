export { ErpClient, CLIENT_VERSION, type ErpClientOptions } from './erp-client';
export { ErpApiError, ErpAuthError, ErpConflictError, ErpNetworkError, WebhookVerificationError } from './errors';
export type { ApiResponse, RequestOptions, TokenSource } from './http/transport';
export { parseRetryAfter } from './http/transport';
export { v1Timestamp, type Query, type QueryValue } from './http/query';
export { listV1, DEFAULT_V1_PAGE_SIZE, type V1FilterValue, type V1ListOptions, type V1PageInfo } from './paging/v1-list';
export { listV3, type V3ListOptions, type V3PageInfo } from './paging/v3-list';
export { updateWithRetry, DEFAULT_MAX_ATTEMPTS, type ChangeFunction, type ReadModifyWrite, type UpdateOptions } from './concurrency/update-with-retry';
export { CustomersApi } from './resources/customers';
export { SupplierInvoicesApi } from './resources/supplier-invoices';
export { SalesOrdersApi, type SalesOrderListOptions, type SalesOrderUpdateOptions } from './resources/sales-orders';
export { InventoryApi } from './resources/inventory';
export { PricesApi } from './resources/prices';
export {
  AttachmentsApi,
  type AttachmentOwner,
  type AttachmentOwnerType,
  type AttachmentStream,
  type DownloadOptions,
  type UploadFile,
  type UploadOptions,
} from './resources/attachments';
export type { UploadData } from './attachments/multipart';
export { verifyWebhook, type VerifyWebhookInput, type WebhookEvent, type WebhookHeaders } from './webhooks/verify-webhook';
export type * from './types';
export type { components, operations, paths } from './generated/openapi';
