import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The sales-order tables as TypeORM sees them. They describe the schema (and let CI detect drift
 * from the migrations); every read and write goes through hand-written SQL (@erp/sales-orders-queries,
 * sales-orders.service.ts) that builds the JSON in PostgreSQL.
 */
@Entity({ name: 'sales_orders' })
@Index('sales_orders_company_type_order_key', ['companyId', 'orderType', 'orderId'], { unique: true })
@Index('sales_orders_company_internal_key', ['companyId', 'internalId'], { unique: true })
// Covering indexes (INCLUDE, migration 1766100000001), which TypeORM cannot describe: the migration is their definition.
@Index('sales_orders_company_created_idx', { synchronize: false })
@Index('sales_orders_company_modified_idx', { synchronize: false })
@Index('sales_orders_company_order_id_idx', { synchronize: false })
@Index('sales_orders_company_type_created_idx', ['companyId', 'orderType', 'createdAt', 'internalId'])
@Index('sales_orders_company_customer_idx', { synchronize: false })
@Index('sales_orders_company_status_idx', ['companyId', 'status', 'createdAt', 'internalId'])
@Index('sales_orders_search_trgm_idx', { synchronize: false })
@Check('sales_orders_status_check', `status IN ('Open', 'Hold', 'BackOrder', 'Completed', 'Cancelled')`)
@Check('sales_orders_type_check', `order_type IN ('SO', 'QT', 'IN', 'CM')`)
@Check('sales_orders_commission_percent_check', `commission_percent >= 0 AND commission_percent <= 100`)
@Check('sales_orders_freight_check', `freight_cost >= 0 AND freight_premium >= 0`)
@Check('sales_orders_exchange_rate_check', `exchange_rate > 0`)
// A check rather than NOT NULL: added NOT VALID and validated without blocking writes (1766960000000).
@Check('sales_orders_grand_total_check', `grand_total IS NOT NULL`)
export class SalesOrderEntity {
  @PrimaryGeneratedColumn('identity', { name: 'internal_id', type: 'bigint', generatedIdentity: 'ALWAYS' })
  internalId: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ name: 'order_type', type: 'varchar', length: 2 })
  orderType: string;

  @Column({ name: 'order_id', type: 'varchar', length: 15 })
  orderId: string;

  @Column({ type: 'varchar', length: 20 })
  status: string;

  @Column({ name: 'order_date', type: 'timestamptz' })
  orderDate: Date;

  @Column({ name: 'request_on', type: 'timestamptz', nullable: true })
  requestOn: Date | null;

  @Column({ name: 'cancel_by', type: 'timestamptz', nullable: true })
  cancelBy: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  note: string | null;

  @Column({ name: 'currency_id', type: 'varchar', length: 3, nullable: true })
  currencyId: string | null;

  @Column({ name: 'customer_id', type: 'varchar', length: 30 })
  customerId: string;

  /** The customer's name as it appears on the order (copied when the order gets its customer). */
  @Column({ name: 'customer_name', type: 'varchar', length: 255 })
  customerName: string;

  @Column({ name: 'customer_order', type: 'varchar', length: 40, nullable: true })
  customerOrder: string | null;

  @Column({ name: 'customer_ref_no', type: 'varchar', length: 40, nullable: true })
  customerRefNo: string | null;

  @Column({ type: 'jsonb' })
  billing: object;

  @Column({ type: 'jsonb' })
  shipping: object;

  @Column({ name: 'payment_settings', type: 'jsonb' })
  paymentSettings: object;

  @Column({ type: 'jsonb' })
  attachments: object;

  @Column({ name: 'line_total', type: 'numeric', precision: 38, scale: 2, default: 0 })
  lineTotal: string;

  @Column({ name: 'discount_total', type: 'numeric', precision: 38, scale: 2, default: 0 })
  discountTotal: string;

  @Column({ name: 'order_total', type: 'numeric', precision: 38, scale: 2, default: 0 })
  orderTotal: string;

  @Column({ name: 'order_qty', type: 'numeric', precision: 38, scale: 6, default: 0 })
  orderQty: string;

  /** The highest line id ever given on this order: ids are never reused, even after a delete. */
  @Column({ name: 'last_line_id', type: 'integer', default: 0 })
  lastLineId: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_modified_at', type: 'timestamptz' })
  lastModifiedAt: Date;

  @Column({ type: 'bigint', default: () => `nextval('sales_order_version_seq')` })
  version: string;

  /** The salesperson who earns the commission (the published document's `salesPersonId`). */
  @Column({ name: 'sales_person_id', type: 'varchar', length: 15, nullable: true })
  salesPersonId: string | null;

  @Column({ name: 'commission_percent', type: 'numeric', precision: 7, scale: 4, nullable: true })
  commissionPercent: string | null;

  /** Document discounts: `[{ discountId, discountSequenceId, discountPercent | discountAmount, skipDiscount }]`. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  discounts: object;

  /** Taxes: `[{ taxId, taxCategoryId, taxRate, taxType, ...flags }]`, each applied to the lines of its tax category. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  taxes: object;

  /** The ROT/RUT deduction, or null. */
  @Column({ name: 'rot_rut', type: 'jsonb', nullable: true })
  rotRut: object | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  shipments: object;

  // The document's freight and totals (migration 1766500000001; repository/order-totals.sql.ts).
  @Column({ name: 'freight_cost', type: 'numeric', precision: 38, scale: 2, default: 0 })
  freightCost: string;

  @Column({ name: 'freight_premium', type: 'numeric', precision: 38, scale: 2, default: 0 })
  freightPremium: string;

  @Column({ name: 'freight_tax_category_id', type: 'varchar', length: 10, nullable: true })
  freightTaxCategoryId: string | null;

  @Column({ name: 'document_discount_total', type: 'numeric', precision: 38, scale: 2, default: 0 })
  documentDiscountTotal: string;

  @Column({ name: 'taxable_total', type: 'numeric', precision: 38, scale: 2, default: 0 })
  taxableTotal: string;

  @Column({ name: 'tax_exempt_total', type: 'numeric', precision: 38, scale: 2, default: 0 })
  taxExemptTotal: string;

  @Column({ name: 'tax_total', type: 'numeric', precision: 38, scale: 2, default: 0 })
  taxTotal: string;

  /** What the customer pays (the document's `totals.orderTotal`); null on orders not written since the migration. */
  @Column({ name: 'grand_total', type: 'numeric', precision: 38, scale: 2, nullable: true })
  grandTotal: string | null;

  @Column({ name: 'base_currency_id', type: 'varchar', length: 3, nullable: true })
  baseCurrencyId: string | null;

  /** 1 unit of the order's currency in the base currency, in force on the order date. */
  @Column({ name: 'exchange_rate', type: 'numeric', precision: 18, scale: 8, default: 1 })
  exchangeRate: string;
}

@Entity({ name: 'sales_order_lines' })
@Index('sales_order_lines_sort_idx', ['companyId', 'orderInternalId', 'sortOrder', 'lineId'])
@Check('sales_order_lines_quantity_check', `quantity > 0`)
@Check('sales_order_lines_unit_price_check', `unit_price >= 0`)
@Check('sales_order_lines_discount_check', `discount_percent >= 0 AND discount_percent <= 100`)
@Check('sales_order_lines_extended_price_check', `extended_price = round(quantity * unit_price * (1 - discount_percent / 100), 2)`)
export class SalesOrderLineEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'sales_order_lines_pkey' })
  companyId: string;

  @PrimaryColumn({ name: 'order_internal_id', type: 'bigint', primaryKeyConstraintName: 'sales_order_lines_pkey' })
  orderInternalId: string;

  @PrimaryColumn({ name: 'line_id', type: 'integer', primaryKeyConstraintName: 'sales_order_lines_pkey' })
  lineId: number;

  @ManyToOne(() => SalesOrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'company_id', referencedColumnName: 'companyId', foreignKeyConstraintName: 'sales_order_lines_order_fkey' },
    { name: 'order_internal_id', referencedColumnName: 'internalId', foreignKeyConstraintName: 'sales_order_lines_order_fkey' },
  ])
  order?: SalesOrderEntity;

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;

  @Column({ name: 'inventory_id', type: 'varchar', length: 30 })
  inventoryId: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  description: string | null;

  @Column({ type: 'numeric', precision: 18, scale: 6 })
  quantity: string;

  @Column({ name: 'unit_price', type: 'numeric', precision: 18, scale: 6 })
  unitPrice: string;

  @Column({ name: 'discount_percent', type: 'numeric', precision: 7, scale: 4, default: 0 })
  discountPercent: string;

  @Column({ name: 'extended_price', type: 'numeric', precision: 38, scale: 2 })
  extendedPrice: string;

  @Column({ name: 'unit_of_measure', type: 'varchar', length: 6, nullable: true })
  unitOfMeasure: string | null;

  @Column({ name: 'warehouse_id', type: 'varchar', length: 30, nullable: true })
  warehouseId: string | null;

  @Column({ name: 'request_date', type: 'timestamptz', nullable: true })
  requestDate: Date | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  note: string | null;

  @Column({ name: 'tax_category_id', type: 'varchar', length: 10, nullable: true })
  taxCategoryId: string | null;

  @Column({ type: 'boolean', default: true })
  commissionable: boolean;

  /** The line keeps its own unit price (false: the price rules set it; migration 1766500000000). */
  @Column({ name: 'has_manual_price', type: 'boolean', default: true })
  hasManualPrice: boolean;

  /** The line keeps its own discount (false: the price rules set it). */
  @Column({ name: 'has_manual_discount', type: 'boolean', default: true })
  hasManualDiscount: boolean;

  /** The catalogue item's description when the line was written or got its item (`inventory.description`; migration 1766500000002). */
  @Column({ name: 'item_description', type: 'varchar', length: 255, nullable: true })
  itemDescription: string | null;
}

/** The last order number given per company and order type. */
@Entity({ name: 'sales_order_counters' })
export class SalesOrderCounterEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'sales_order_counters_pkey' })
  companyId: string;

  @PrimaryColumn({ name: 'order_type', type: 'varchar', length: 2, primaryKeyConstraintName: 'sales_order_counters_pkey' })
  orderType: string;

  @Column({ name: 'last_value', type: 'bigint' })
  lastValue: string;
}
