import { CreateIdempotencyKeys1797000000000 } from '@erp/idempotency';
import { MESSAGING_ENTITIES, MESSAGING_MIGRATIONS } from '@erp/messaging';
import { CustomerSnapshotEntity } from './customers/customer-snapshot.entity';
import { InventoryItemEntity, InventoryLocationEntity, InventoryWarehouseEntity } from './inventory/inventory.entity';
import { CreateSalesOrders1764100000000 } from './migrations/1764100000000-create-sales-orders';
import { OrderViews1765300000000 } from './migrations/1765300000000-order-views';
import { CreateInventory1765400000000 } from './migrations/1765400000000-create-inventory';
import { CreateSalesOrderListCells1766100000000 } from './migrations/1766100000000-create-sales-order-list-cells';
import { CoverSalesOrderListIndexes1766100000001 } from './migrations/1766100000001-cover-sales-order-list-indexes';
import { CreateSalesOrderSearchTexts1766200000000 } from './migrations/1766200000000-create-sales-order-search-texts';
import { IndexSalesOrderSearchTexts1766200000001 } from './migrations/1766200000001-index-sales-order-search-texts';
import { CreatePriceRules1766500000000 } from './migrations/1766500000000-create-price-rules';
import { CreateOrderTotals1766500000001 } from './migrations/1766500000001-create-order-totals';
import { AddLineItemDescription1766500000002 } from './migrations/1766500000002-add-line-item-description';
import { EnableTenantViews1766700000000 } from './migrations/1766700000000-enable-tenant-views';
import { WallPriceRules1766700000001 } from './migrations/1766700000001-wall-price-rules';
import { CreateSalesOrderBucketFunctions1766800000000 } from './migrations/1766800000000-create-sales-order-bucket-functions';
import { RequireOrderGrandTotal1766960000000 } from './migrations/1766960000000-require-order-grand-total';
import { CreateServiceRole1796000000000 } from './migrations/1796000000000-create-service-role';
import { SalesOrderCounterEntity, SalesOrderEntity, SalesOrderLineEntity } from './sales-orders/sales-order.entity';

/**
 * Everything this service keeps in its database; the migrations are the schema's source of truth.
 * The outbox (events it publishes) and processed_events (customer events it consumed) come from
 * @erp/messaging.
 */
export const SALES_ORDERS_ENTITIES = [
  SalesOrderEntity,
  SalesOrderLineEntity,
  SalesOrderCounterEntity,
  CustomerSnapshotEntity,
  InventoryItemEntity,
  InventoryWarehouseEntity,
  InventoryLocationEntity,
  ...MESSAGING_ENTITIES,
];
export const SALES_ORDERS_MIGRATIONS = [
  ...MESSAGING_MIGRATIONS,
  CreateSalesOrders1764100000000,
  OrderViews1765300000000,
  CreateInventory1765400000000,
  CreateSalesOrderListCells1766100000000,
  CoverSalesOrderListIndexes1766100000001,
  CreateSalesOrderSearchTexts1766200000000,
  IndexSalesOrderSearchTexts1766200000001,
  CreatePriceRules1766500000000,
  CreateOrderTotals1766500000001,
  AddLineItemDescription1766500000002,
  EnableTenantViews1766700000000,
  WallPriceRules1766700000001,
  CreateSalesOrderBucketFunctions1766800000000,
  RequireOrderGrandTotal1766960000000,
  CreateServiceRole1796000000000,
  // The stored answers of keyed writes (Idempotency-Key, @erp/idempotency).
  CreateIdempotencyKeys1797000000000,
];
