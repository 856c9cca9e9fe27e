import { DECIMAL_INPUT, ref, type Schemas } from '@erp/openapi';

type Schema = Schemas[string];
const text = (description: string, maxLength?: number): Schema => ({ type: ['string', 'null'], description, ...(maxLength ? { maxLength } : {}) });
const number = (description: string): Schema => ({ type: 'number', format: 'double', description });
const dateTime = (description: string): Schema => ({ type: 'string', format: 'date-time', description, examples: ['2026-01-31T12:00:00.000Z'] });
const QUANTITIES: Record<string, Schema> = {
  quantityOnHand: number('Physical quantity on hand'),
  quantityAvailable: number('Quantity available'),
  quantityAvailableForShipment: number('Quantity available for shipment'),
  quantityNotAvailable: number('Quantity at places not counted as available'),
  quantityPurchaseOrders: number('Quantity on open purchase orders'),
};
const QUANTITY_INPUT: Record<string, Schema> = Object.fromEntries(
  Object.entries(QUANTITIES).map(([k, v]) => [k, { ...v, description: `${String(v.description)}; default 0` }]),
);

/** The inventory schemas, named and shaped as the v3 document has them (`additionalProperties: false`), plus the PUT body (an extension). */
export const INVENTORY_SCHEMAS: Schemas = {
  InventoryItemAvailabilityDtoPagedResult: {
    type: 'object',
    additionalProperties: false,
    required: ['value', 'totalCount', 'nextPage'],
    properties: {
      value: { type: 'array', items: ref('InventoryItemAvailabilityDto') },
      totalCount: { type: 'integer', format: 'int32' },
      nextPage: { type: ['string', 'null'], description: 'Path and query of the next page; null on the last' },
    },
  },
  InventoryItemAvailabilityDto: {
    type: 'object',
    additionalProperties: false,
    description: 'Inventory summary for one item. `attributes` only with expand=Attribute.',
    properties: {
      internalId: { type: 'integer', format: 'int32' },
      inventoryId: { type: 'string' },
      description: text('The description of the item'),
      baseUnit: text('The base unit'),
      availability: { type: 'array', items: ref('WarehouseAvailabilityDto') },
      attributes: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  WarehouseAvailabilityDto: {
    type: 'object',
    additionalProperties: false,
    description: 'One warehouse of an item. `locations` only with expand=Location.',
    properties: {
      warehouseId: { type: 'string' },
      internalWarehouseId: { type: 'integer', format: 'int32' },
      description: text('The description of the warehouse'),
      ...QUANTITIES,
      estimatedTotalCost: { type: ['number', 'null'], format: 'double', description: 'The cost of quantityOnHand' },
      estimatedUnitCost: { type: ['number', 'null'], format: 'double', description: 'estimatedTotalCost / quantityOnHand' },
      lastModified: dateTime('When the figures of this warehouse or one of its locations last changed (UTC)'),
      locations: { type: 'array', items: ref('LocationAvailabilityDto') },
    },
  },
  LocationAvailabilityDto: {
    type: 'object',
    additionalProperties: false,
    properties: {
      locationId: { type: 'string' },
      internalLocationId: { type: 'integer', format: 'int32' },
      description: text('The description of the location'),
      ...QUANTITIES,
      lastModified: dateTime('When the figures of this location last changed (UTC)'),
    },
  },
  InventoryItemPut: {
    type: 'object',
    additionalProperties: false,
    description: 'PUT /api/v3/Inventory/{inventoryId} (an extension): the whole item; what is left out is empty afterwards.',
    properties: {
      description: text('At most 255 characters', 255),
      baseUnit: text('At most 10 characters', 10),
      attributes: { type: 'object', maxProperties: 100, description: 'Attribute id (1 to 30 of A-Z a-z 0-9 _ . -) -> value (at most 255 characters)', additionalProperties: { type: 'string', maxLength: 255 } },
      availability: {
        type: 'array',
        maxItems: 100,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['warehouseId'],
          properties: {
            warehouseId: { type: 'string', minLength: 1, maxLength: 30 },
            description: text('At most 255 characters', 255),
            ...QUANTITY_INPUT,
            estimatedTotalCost: { type: ['number', 'null'], minimum: 0 },
            locations: {
              type: 'array',
              maxItems: 1000,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['locationId'],
                properties: { locationId: { type: 'string', minLength: 1, maxLength: 30 }, description: text('At most 255 characters', 255), ...QUANTITY_INPUT },
              },
            },
          },
        },
      },
      prices: {
        type: 'array',
        maxItems: 100,
        description: 'The item\'s base price per currency, the last of the price rules (docs/api-conventions.md "Price rules"); one per currency',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['currencyId', 'unitPrice'],
          properties: { currencyId: { type: 'string', pattern: '^[A-Z]{3}$' }, unitPrice: DECIMAL_INPUT },
        },
      },
    },
  },
};
