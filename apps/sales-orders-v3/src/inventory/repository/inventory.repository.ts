import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { namedQuery, updateOrInsert } from '@erp/database';
import { writeTransaction } from '@erp/idempotency';
import type { InventoryListQuery } from '../inventory-list.query';

/** A warehouse entry of an item's availability, as stored and shown (with its locations). */
export interface WarehouseAvailability extends AvailabilityFigures {
  warehouseId: string;
  internalWarehouseId: number;
  estimatedTotalCost: number | null;
  estimatedUnitCost: number | null;
  lastModified: string;
  locations: LocationAvailability[];
}

export interface LocationAvailability extends AvailabilityFigures {
  locationId: string;
  internalLocationId: number;
  lastModified: string;
}

/** What a warehouse and a location both show. */
interface AvailabilityFigures {
  description: string | null;
  quantityOnHand: number;
  quantityAvailable: number;
  quantityAvailableForShipment: number;
  quantityNotAvailable: number;
  quantityPurchaseOrders: number;
}

/** What a PUT stores for an item. */
export interface InventoryItemRecord {
  description: string | null;
  baseUnit: string | null;
  attributes: Record<string, string>;
  availability: WarehouseAvailability[];
  /** The latest `lastModified` of the availability, or the write time when it has none. */
  availabilityModifiedAt: string;
}

export interface StoredItem {
  /** Empty for an item that does not exist yet. */
  availability: WarehouseAvailability[];
  now: string;
}

const UTC_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The item as the API shows it. `availability` keeps only the warehouses (and locations) the
 * request selected; `locations` and `attributes` appear only when expanded.
 */
function itemJson(filtered: boolean): string {
  const warehouseMatches = filtered
    ? `(CAST(:warehouses AS text[]) IS NULL OR w.e->>'warehouseId' = ANY(CAST(:warehouses AS text[])))
       AND (CAST(:locations AS text[]) IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(w.e->'locations') l(e) WHERE l.e->>'locationId' = ANY(CAST(:locations AS text[]))))`
    : 'true';
  const locations = filtered
    ? `(SELECT coalesce(jsonb_agg(l.e ORDER BY l.ord), '[]'::jsonb) FROM jsonb_array_elements(w.e->'locations') WITH ORDINALITY l(e, ord)
        WHERE CAST(:locations AS text[]) IS NULL OR l.e->>'locationId' = ANY(CAST(:locations AS text[])))`
    : `w.e->'locations'`;
  return `jsonb_build_object(
      'internalId', i.internal_id,
      'inventoryId', i.inventory_id,
      'description', i.description,
      'baseUnit', i.base_unit,
      'availability', (SELECT coalesce(jsonb_agg(
          CASE WHEN :expandLocation THEN (w.e - 'locations') || jsonb_build_object('locations', ${locations}) ELSE w.e - 'locations' END
          ORDER BY w.ord), '[]'::jsonb)
        FROM jsonb_array_elements(i.availability) WITH ORDINALITY w(e, ord) WHERE ${warehouseMatches})
    ) || CASE WHEN :expandAttribute THEN jsonb_build_object('attributes', i.attributes) ELSE '{}'::jsonb END`;
}

/** The WHERE of a list request and its named parameters; always scoped by company. */
function listWhere(companyId: string, query: InventoryListQuery): { sql: string; parameters: Record<string, unknown> } {
  const parameters: Record<string, unknown> = {
    companyId,
    warehouses: query.warehouseIds ?? null,
    locations: query.locationIds ?? null,
  };
  const conditions = ['i.company_id = :companyId'];
  if (query.inventoryIds) {
    parameters.inventoryIds = query.inventoryIds;
    conditions.push('i.inventory_id = ANY(CAST(:inventoryIds AS text[]))');
  }
  if (query.modifiedSince) {
    parameters.since = query.modifiedSince;
    // availability_modified_at is the latest warehouse lastModified: the index narrows, the EXISTS below decides per warehouse.
    conditions.push('i.availability_modified_at >= CAST(:since AS timestamptz)');
  }
  if (query.warehouseIds || query.locationIds) {
    const since = query.modifiedSince ? `AND CAST(w.e->>'lastModified' AS timestamptz) >= CAST(:since AS timestamptz)` : '';
    conditions.push(`EXISTS (SELECT 1 FROM jsonb_array_elements(i.availability) w(e)
      WHERE (CAST(:warehouses AS text[]) IS NULL OR w.e->>'warehouseId' = ANY(CAST(:warehouses AS text[])))
        AND (CAST(:locations AS text[]) IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(w.e->'locations') l(e) WHERE l.e->>'locationId' = ANY(CAST(:locations AS text[]))))
        ${since})`);
  }
  Object.entries(query.attributes ?? {}).forEach(([id, values], k) => {
    // Values of one attribute are alternatives; each is a containment the GIN index serves.
    const alternatives = values.map((value, v) => {
      parameters[`attr_${k}_${v}`] = JSON.stringify({ [id]: value });
      return `i.attributes @> CAST(:attr_${k}_${v} AS jsonb)`;
    });
    conditions.push(`(${alternatives.join(' OR ')})`);
  });
  return { sql: conditions.join(' AND '), parameters };
}

/** Persistence of the inventory catalogue: every statement scoped by company. */
@Injectable()
export class InventoryRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    // A keyed request's first write commits with its stored answer (@erp/idempotency).
    return writeTransaction(this.db, work);
  }

  /** One page (items as JSON text, in creation order) and the total, from one statement (one snapshot). */
  async page(companyId: string, query: InventoryListQuery): Promise<{ items: string[]; totalCount: number }> {
    const where = listWhere(companyId, query);
    const [row] = await namedQuery<{ total: number; items: string | null }>(
      this.db,
      `WITH matched AS (SELECT i.* FROM inventory_items i WHERE ${where.sql}),
       page AS (SELECT i.* FROM matched i ORDER BY i.internal_id LIMIT :limit OFFSET :offset)
       SELECT (SELECT count(*) FROM matched)::int AS total,
              (SELECT string_agg((${itemJson(Boolean(query.warehouseIds || query.locationIds))})::text, ',' ORDER BY i.internal_id) FROM page i) AS items`,
      {
        ...where.parameters,
        expandLocation: query.expand.has('Location'),
        expandAttribute: query.expand.has('Attribute'),
        limit: query.page.pageSize,
        offset: query.page.offset,
      },
    );
    return { items: row.items ? [row.items] : [], totalCount: row.total };
  }

  /** The item's stored availability, locked for the caller's write, and the transaction's time. */
  async lockForWrite(tx: EntityManager, companyId: string, inventoryId: string): Promise<StoredItem> {
    const [row] = await namedQuery<{ availability: WarehouseAvailability[] | null; now: string }>(
      tx,
      `SELECT (SELECT availability FROM inventory_items WHERE company_id = :companyId AND inventory_id = :inventoryId FOR UPDATE) AS availability,
              to_char(now() AT TIME ZONE 'UTC', ${UTC_MS}) AS now`,
      { companyId, inventoryId },
    );
    return { availability: row.availability ?? [], now: row.now };
  }

  /** The internal ids of the company's warehouse codes, assigning new ones to codes not seen before. */
  async warehouseIds(tx: EntityManager, companyId: string, warehouseIds: string[]): Promise<Map<string, number>> {
    if (warehouseIds.length === 0) return new Map();
    await namedQuery(
      tx,
      // Only the codes not seen before: an INSERT takes an identity value for every row it tries,
      // conflicting or not, so re-inserting known codes on every PUT would use up the sequence that
      // every company shares. ON CONFLICT still covers two PUTs adding the same code at once.
      `INSERT INTO inventory_warehouses (company_id, warehouse_id)
       SELECT CAST(:companyId AS varchar), w FROM unnest(CAST(:ids AS text[])) w
       WHERE NOT EXISTS (SELECT 1 FROM inventory_warehouses k WHERE k.company_id = :companyId AND k.warehouse_id = w)
       ORDER BY w ON CONFLICT DO NOTHING`,
      { companyId, ids: warehouseIds },
    );
    const rows = await namedQuery<{ warehouse_id: string; internal_id: number }>(
      tx,
      `SELECT warehouse_id, internal_id FROM inventory_warehouses WHERE company_id = :companyId AND warehouse_id = ANY(CAST(:ids AS text[]))`,
      { companyId, ids: warehouseIds },
    );
    return new Map(rows.map((r) => [r.warehouse_id, r.internal_id]));
  }

  /** The internal ids of the company's locations (keyed `<warehouse>\u0000<location>`), assigning new ones. */
  async locationIds(tx: EntityManager, companyId: string, pairs: Array<{ warehouseId: string; locationId: string }>): Promise<Map<string, number>> {
    if (pairs.length === 0) return new Map();
    const json = JSON.stringify(pairs);
    await namedQuery(
      tx,
      // Only the pairs not seen before (see warehouseIds: known ones would use up identity values).
      `INSERT INTO inventory_locations (company_id, warehouse_id, location_id)
       SELECT CAST(:companyId AS varchar), p."warehouseId", p."locationId" FROM jsonb_to_recordset(CAST(:pairs AS jsonb)) AS p("warehouseId" text, "locationId" text)
       WHERE NOT EXISTS (SELECT 1 FROM inventory_locations k
                         WHERE k.company_id = :companyId AND k.warehouse_id = p."warehouseId" AND k.location_id = p."locationId")
       ORDER BY 2, 3 ON CONFLICT DO NOTHING`,
      { companyId, pairs: json },
    );
    const rows = await namedQuery<{ warehouse_id: string; location_id: string; internal_id: number }>(
      tx,
      `SELECT l.warehouse_id, l.location_id, l.internal_id FROM inventory_locations l
       JOIN jsonb_to_recordset(CAST(:pairs AS jsonb)) AS p("warehouseId" text, "locationId" text)
         ON l.warehouse_id = p."warehouseId" AND l.location_id = p."locationId"
       WHERE l.company_id = :companyId`,
      { companyId, pairs: json },
    );
    return new Map(rows.map((r) => [`${r.warehouse_id}\u0000${r.location_id}`, r.internal_id]));
  }

  /**
   * Creates or replaces the item; returns it as the API shows it with everything expanded, and
   * whether this statement created it (two PUTs of a new item at once: one creates, the other replaces).
   */
  async upsert(tx: EntityManager, companyId: string, inventoryId: string, item: InventoryItemRecord): Promise<{ json: string; created: boolean }> {
    const parameters = {
      companyId,
      inventoryId,
      description: item.description,
      baseUnit: item.baseUnit,
      attributes: JSON.stringify(item.attributes),
      availability: JSON.stringify(item.availability),
      availabilityModifiedAt: item.availabilityModifiedAt,
      expandLocation: true,
      expandAttribute: true,
    };
    // `internalId` is the document's int32 identity, shared by every company's items: a replace
    // must not draw one (updateOrInsert updates first). The caller holds the row's lock
    // (lockForWrite) when it exists.
    const { created, rows } = await updateOrInsert<{ json: string }>(
      tx,
      {
        update: `UPDATE inventory_items AS i SET description = :description, base_unit = :baseUnit, attributes = CAST(:attributes AS jsonb),
                   availability = CAST(:availability AS jsonb), availability_modified_at = CAST(:availabilityModifiedAt AS timestamptz),
                   last_modified_at = date_trunc('milliseconds', now())
                 WHERE i.company_id = :companyId AND i.inventory_id = :inventoryId
                 RETURNING (${itemJson(false)})::text AS json`,
        insert: `INSERT INTO inventory_items AS i (company_id, inventory_id, description, base_unit, attributes, availability,
                   availability_modified_at, created_at, last_modified_at)
                 VALUES (:companyId, :inventoryId, :description, :baseUnit, CAST(:attributes AS jsonb), CAST(:availability AS jsonb),
                   CAST(:availabilityModifiedAt AS timestamptz), date_trunc('milliseconds', now()), date_trunc('milliseconds', now()))
                 ON CONFLICT (company_id, inventory_id) DO NOTHING
                 RETURNING (${itemJson(false)})::text AS json`,
      },
      parameters,
    );
    return { json: rows[0].json, created };
  }

  /** Replaces the item's base prices (one per currency; decimals as exact text). */
  async replacePrices(tx: EntityManager, companyId: string, inventoryId: string, prices: Array<{ currencyId: string; unitPrice: string }>): Promise<void> {
    await namedQuery(tx, `DELETE FROM inventory_item_prices WHERE company_id = :companyId AND inventory_id = :inventoryId`, { companyId, inventoryId });
    if (prices.length === 0) return;
    await namedQuery(
      tx,
      `INSERT INTO inventory_item_prices (company_id, inventory_id, currency_id, unit_price)
       SELECT :companyId, :inventoryId, p.currency_id, p.unit_price FROM jsonb_to_recordset(CAST(:prices AS jsonb)) AS p(currency_id text, unit_price numeric(18,6))`,
      { companyId, inventoryId, prices: JSON.stringify(prices.map((p) => ({ currency_id: p.currencyId, unit_price: p.unitPrice }))) },
    );
  }

  /**
   * Which of the given item ids the company has, in the caller's transaction. The rows are locked
   * against change (`FOR KEY SHARE`) until it commits, so an order line never commits referencing
   * an item whose key a concurrent transaction removes.
   */
  async existing(tx: EntityManager, companyId: string, inventoryIds: string[]): Promise<Set<string>> {
    if (inventoryIds.length === 0) return new Set();
    const rows = await namedQuery<{ inventory_id: string }>(
      tx,
      `SELECT inventory_id FROM inventory_items WHERE company_id = :companyId AND inventory_id = ANY(CAST(:ids AS text[])) FOR KEY SHARE`,
      { companyId, ids: inventoryIds },
    );
    return new Set(rows.map((r) => r.inventory_id));
  }
}
