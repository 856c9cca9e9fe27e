import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An inventory item of a company (migration 1765400000000): its attributes and its warehouse
 * availability as the API shows them. Read and written with SQL by `InventoryRepository`.
 */
@Entity({ name: 'inventory_items' })
@Index('inventory_items_company_internal_key', ['companyId', 'internalId'], { unique: true })
@Index('inventory_items_company_modified_idx', ['companyId', 'availabilityModifiedAt'])
export class InventoryItemEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'inventory_items_pkey' })
  companyId: string;

  @PrimaryColumn({ name: 'inventory_id', type: 'varchar', length: 30, primaryKeyConstraintName: 'inventory_items_pkey' })
  inventoryId: string;

  @Column({ name: 'internal_id', type: 'integer', generated: 'identity', generatedIdentity: 'ALWAYS' })
  internalId: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  description: string | null;

  @Column({ name: 'base_unit', type: 'varchar', length: 10, nullable: true })
  baseUnit: string | null;

  // GIN (company_id, attributes jsonb_path_ops) for attributeFilter: declared in the migration only.
  @Index('inventory_items_attributes_idx', { synchronize: false })
  @Column({ type: 'jsonb' })
  attributes: Record<string, string>;

  @Column({ type: 'jsonb' })
  availability: unknown[];

  @Column({ name: 'availability_modified_at', type: 'timestamptz' })
  availabilityModifiedAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_modified_at', type: 'timestamptz' })
  lastModifiedAt: Date;
}

/** A warehouse code of a company and the int32 id the API shows for it. */
@Entity({ name: 'inventory_warehouses' })
export class InventoryWarehouseEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'inventory_warehouses_pkey' })
  companyId: string;

  @PrimaryColumn({ name: 'warehouse_id', type: 'varchar', length: 30, primaryKeyConstraintName: 'inventory_warehouses_pkey' })
  warehouseId: string;

  @Column({ name: 'internal_id', type: 'integer', generated: 'identity', generatedIdentity: 'ALWAYS' })
  internalId: number;
}

/** A location code of a company's warehouse and the int32 id the API shows for it. */
@Entity({ name: 'inventory_locations' })
export class InventoryLocationEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'inventory_locations_pkey' })
  companyId: string;

  @PrimaryColumn({ name: 'warehouse_id', type: 'varchar', length: 30, primaryKeyConstraintName: 'inventory_locations_pkey' })
  warehouseId: string;

  @PrimaryColumn({ name: 'location_id', type: 'varchar', length: 30, primaryKeyConstraintName: 'inventory_locations_pkey' })
  locationId: string;

  @Column({ name: 'internal_id', type: 'integer', generated: 'identity', generatedIdentity: 'ALWAYS' })
  internalId: number;
}
