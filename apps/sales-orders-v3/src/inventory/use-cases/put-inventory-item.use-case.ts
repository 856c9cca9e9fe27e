import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { bodyProblemsOf, DETAIL_CODES, type FieldProblem, ValidationFailedError } from '@erp/errors';
import { decimalText } from '@erp/decimals';
import { INVENTORY_CODE, type PutInventoryItemDto, type WarehouseAvailabilityDto } from '../dto/put-inventory-item.dto';
import { InventoryRepository, type LocationAvailability, type WarehouseAvailability } from '../repository/inventory.repository';

export interface PutResult {
  json: string;
  created: boolean;
}

type Figures = Omit<LocationAvailability, 'lastModified'> | Omit<WarehouseAvailability, 'lastModified' | 'locations'>;

/** Field by field over the new entry's keys (stored jsonb does not keep key order). */
function sameFigures(next: Figures, stored: object): boolean {
  const old = stored as Record<string, unknown>;
  return Object.entries(next).every(([key, value]) => old[key] === value);
}

const entries = <T>(value: unknown): Array<Partial<T>> =>
  Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'object' && v !== null ? (v as Partial<T>) : {})) : [];

/**
 * Each warehouse once, each location once per warehouse, each price currency once: a repeated one would be ambiguous. Runs on
 * bodies that may have shape problems too (so they are all listed together): entries of the wrong
 * type are skipped here, they have their own problem.
 */
function repeatedCodeProblems(dto: PutInventoryItemDto): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<unknown>();
  entries<WarehouseAvailabilityDto>(dto.availability).forEach((w, i) => {
    if (typeof w.warehouseId !== 'string') return;
    if (seen.has(w.warehouseId)) problems.push({ field: `availability[${i}].warehouseId`, message: `warehouse ${w.warehouseId} is listed twice`, code: DETAIL_CODES.invalidValue });
    seen.add(w.warehouseId);
    const locations = new Set<unknown>();
    entries<{ locationId: string }>(w.locations).forEach((l, j) => {
      if (typeof l.locationId !== 'string') return;
      if (locations.has(l.locationId)) {
        problems.push({ field: `availability[${i}].locations[${j}].locationId`, message: `location ${l.locationId} is listed twice`, code: DETAIL_CODES.invalidValue });
      }
      locations.add(l.locationId);
    });
  });
  const currencies = new Set<unknown>();
  entries<{ currencyId: string }>(dto.prices).forEach((p, i) => {
    if (typeof p.currencyId !== 'string') return;
    if (currencies.has(p.currencyId)) problems.push({ field: `prices[${i}].currencyId`, message: `currency ${p.currencyId} is priced twice`, code: DETAIL_CODES.invalidValue });
    currencies.add(p.currencyId);
  });
  return problems;
}

/**
 * PUT /api/v3/Inventory/{inventoryId}: creates or replaces the item, in one transaction holding the
 * item's row. A warehouse's or location's `lastModified` moves to the write's time only when its
 * figures changed (for a warehouse: its own or any of its locations'), so `modifiedSince` finds
 * the availability changes, not every write.
 */
@Injectable()
export class PutInventoryItem {
  constructor(private readonly inventory: InventoryRepository) {}

  execute(companyId: string, inventoryId: string, dto: PutInventoryItemDto): Promise<PutResult> {
    const problems = [...bodyProblemsOf(dto), ...repeatedCodeProblems(dto)];
    if (!INVENTORY_CODE.test(inventoryId)) {
      problems.unshift({ field: 'inventoryId', message: 'inventoryId must be 1 to 30 characters without control characters', code: DETAIL_CODES.invalidValue });
    }
    if (problems.length > 0) throw new ValidationFailedError(problems);
    return this.inventory.transaction(async (tx) => {
      const stored = await this.inventory.lockForWrite(tx, companyId, inventoryId);
      const warehouses = dto.availability ?? [];
      const warehouseIds = await this.inventory.warehouseIds(tx, companyId, warehouses.map((w) => w.warehouseId));
      const locationIds = await this.inventory.locationIds(
        tx,
        companyId,
        warehouses.flatMap((w) => (w.locations ?? []).map((l) => ({ warehouseId: w.warehouseId, locationId: l.locationId }))),
      );
      const before = new Map(stored.availability.map((w) => [w.warehouseId, w]));
      const availability = warehouses.map((w) => warehouseEntry(w, warehouseIds, locationIds, before.get(w.warehouseId), stored.now));
      const latest = availability.map((w) => w.lastModified).sort().at(-1) ?? stored.now;
      const result = await this.inventory.upsert(tx, companyId, inventoryId, {
        description: dto.description ?? null,
        baseUnit: dto.baseUnit ?? null,
        attributes: dto.attributes ?? {},
        availability,
        availabilityModifiedAt: latest,
      });
      const prices = (dto.prices ?? []).map((p) => ({ currencyId: p.currencyId, unitPrice: decimalText(p.unitPrice) }));
      await this.inventory.replacePrices(tx, companyId, inventoryId, prices);
      return result;
    });
  }
}

function warehouseEntry(
  dto: WarehouseAvailabilityDto,
  warehouseIds: Map<string, number>,
  locationIds: Map<string, number>,
  before: WarehouseAvailability | undefined,
  now: string,
): WarehouseAvailability {
  const previousLocations = new Map((before?.locations ?? []).map((l) => [l.locationId, l]));
  const locations = (dto.locations ?? []).map((l): LocationAvailability => {
    const figures = {
      locationId: l.locationId,
      internalLocationId: locationIds.get(`${dto.warehouseId}\u0000${l.locationId}`) ?? 0,
      description: l.description ?? null,
      quantityOnHand: l.quantityOnHand ?? 0,
      quantityAvailable: l.quantityAvailable ?? 0,
      quantityAvailableForShipment: l.quantityAvailableForShipment ?? 0,
      quantityNotAvailable: l.quantityNotAvailable ?? 0,
      quantityPurchaseOrders: l.quantityPurchaseOrders ?? 0,
    };
    const old = previousLocations.get(l.locationId);
    const unchanged = old !== undefined && sameFigures(figures, old);
    return { ...figures, lastModified: unchanged ? old.lastModified : now };
  });
  const quantityOnHand = dto.quantityOnHand ?? 0;
  const total = dto.estimatedTotalCost ?? null;
  const figures = {
    warehouseId: dto.warehouseId,
    internalWarehouseId: warehouseIds.get(dto.warehouseId) ?? 0,
    description: dto.description ?? null,
    quantityOnHand,
    quantityAvailable: dto.quantityAvailable ?? 0,
    quantityAvailableForShipment: dto.quantityAvailableForShipment ?? 0,
    quantityNotAvailable: dto.quantityNotAvailable ?? 0,
    quantityPurchaseOrders: dto.quantityPurchaseOrders ?? 0,
    estimatedTotalCost: total,
    // The document: "calculated as EstimatedTotalCost/QuantityOnHand"; null without stock (none, or
    // negative) or cost. In decimals, to 6 places: 0.3 / 3 is 0.1, not 0.09999999999999999.
    estimatedUnitCost: total === null || quantityOnHand <= 0 ? null : new Decimal(total).div(quantityOnHand).toDecimalPlaces(6).toNumber(),
  };
  const locationsUnchanged =
    before !== undefined &&
    before.locations.length === locations.length &&
    locations.every((l, i) => before.locations[i].locationId === l.locationId && before.locations[i].lastModified === l.lastModified);
  const unchanged = before !== undefined && locationsUnchanged && sameFigures(figures, before);
  return { ...figures, lastModified: unchanged ? before.lastModified : now, locations };
}
