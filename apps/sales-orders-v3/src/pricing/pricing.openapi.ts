import { DECIMAL_INPUT, type Schemas } from '@erp/openapi';

type Schema = Schemas[string];
const text = (maxLength: number): Schema => ({ type: ['string', 'null'], maxLength });
const nullableDecimal = (description: string): Schema => ({ anyOf: [DECIMAL_INPUT, { type: 'null' }], description });
const date = (description: string): Schema => ({ type: ['string', 'null'], format: 'date', description });
const decimalOut = (description: string): Schema => ({ type: 'number', description });
const lastModified: Schema = { type: 'string', format: 'date-time', description: 'When the record was last written (UTC)' };

const ENTRY_FIELDS: Record<string, Schema> = {
  inventoryId: { type: 'string', minLength: 1, maxLength: 30 },
  customerId: { type: ['string', 'null'], maxLength: 30, description: 'The entry prices this customer only' },
  priceClassId: { type: ['string', 'null'], maxLength: 10, description: 'The entry prices the customers of this class (not with customerId); neither: every customer' },
};

/** The price rule extensions' schemas (docs/api-conventions.md "Price rules"). */
export const PRICING_SCHEMAS: Schemas = {
  PriceClassPut: {
    type: 'object',
    additionalProperties: false,
    description: 'PUT /api/v3/PriceClasses/{priceClassId}: the whole class.',
    properties: {
      description: text(255),
      customers: { type: 'array', maxItems: 10000, items: { type: 'string', maxLength: 30 }, description: 'Customer numbers; each in at most one class' },
    },
  },
  PriceClass: {
    type: 'object',
    additionalProperties: false,
    required: ['priceClassId', 'description', 'customers', 'lastModified'],
    properties: { priceClassId: { type: 'string' }, description: { type: ['string', 'null'] }, customers: { type: 'array', items: { type: 'string' } }, lastModified },
  },
  PriceListPut: {
    type: 'object',
    additionalProperties: false,
    required: ['currencyId'],
    description: 'PUT /api/v3/PriceLists/{priceListId}: the whole list; one price per item, target, minQuantity and effectiveFrom.',
    properties: {
      description: text(255),
      currencyId: { type: 'string', pattern: '^[A-Z]{3}$', description: 'The currency of every price of the list; it prices orders in that currency' },
      entries: {
        type: 'array',
        maxItems: 10000,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['inventoryId', 'unitPrice'],
          properties: {
            ...ENTRY_FIELDS,
            minQuantity: nullableDecimal('Quantity break: applies to lines of at least this quantity; default 0'),
            unitPrice: DECIMAL_INPUT,
            discountPercent: nullableDecimal('The line discount the entry gives (0 to 100); default none'),
            effectiveFrom: date('First day in force (inclusive); null: always before effectiveTo'),
            effectiveTo: date('Last day in force (inclusive); null: open-ended'),
          },
        },
      },
    },
  },
  PriceList: {
    type: 'object',
    additionalProperties: false,
    required: ['priceListId', 'description', 'currencyId', 'entries', 'lastModified'],
    properties: {
      priceListId: { type: 'string' },
      description: { type: ['string', 'null'] },
      currencyId: { type: 'string' },
      entries: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...ENTRY_FIELDS,
            minQuantity: decimalOut('Quantity break'),
            unitPrice: decimalOut('Unit price, exact'),
            discountPercent: { type: ['number', 'null'] },
            effectiveFrom: date('First day in force'),
            effectiveTo: date('Last day in force'),
          },
        },
      },
      lastModified,
    },
  },
  CurrencyRatesPut: {
    type: 'object',
    additionalProperties: false,
    required: ['baseCurrencyId'],
    description: 'PUT /api/v3/CurrencyRates: the base currency and every rate, replaced whole; one rate per currency and effectiveDate.',
    properties: {
      baseCurrencyId: { type: 'string', pattern: '^[A-Z]{3}$' },
      rates: {
        type: 'array',
        maxItems: 10000,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['currencyId', 'effectiveDate', 'rate'],
          properties: {
            currencyId: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Not the base currency' },
            effectiveDate: { type: 'string', format: 'date', description: 'In force from this day (UTC) until the next rate of the currency' },
            rate: { ...DECIMAL_INPUT, description: '1 unit of currencyId in the base currency; > 0, at most 8 decimals' },
          },
        },
      },
    },
  },
  CurrencyRates: {
    type: 'object',
    additionalProperties: false,
    required: ['baseCurrencyId', 'rates', 'lastModified'],
    properties: {
      baseCurrencyId: { type: 'string' },
      rates: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: { currencyId: { type: 'string' }, effectiveDate: { type: 'string', format: 'date' }, rate: { type: 'number' } },
        },
      },
      lastModified,
    },
  },
};
