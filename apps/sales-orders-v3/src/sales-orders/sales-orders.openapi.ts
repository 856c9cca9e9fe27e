import { DECIMAL_INPUT, ref, type Schemas } from '@erp/openapi';
import { CREATE_STATUSES, ORDER_STATUSES } from '@erp/sales-orders-queries';
import { CreateSalesOrderDto, NewOrderLineDto } from './dto/create-sales-order.dto';
import { CreateCustomerReferenceDto, PatchCustomerReferenceDto, PaymentSettingsDto } from './dto/order-parts.dto';
import { PatchSalesOrderDto } from './dto/patch-sales-order.dto';
import { notSupportedPropertiesOf } from './dto/published-fields';
import { AddLineDto, PatchLineEntryDto } from './dto/sales-order-lines.dto';

import { dateTime, decimal, envelope, nullableDateTime, orderType, type Schema, text } from './sales-orders.openapi-helpers';
import { VIEW_SCHEMAS } from './sales-order-views.openapi';
import { TOTALS_SCHEMAS } from './order-totals.openapi';

/** Line fields a client may send (insert and update). */
const LINE_INPUT = {
  inventoryId: { type: 'string' },
  quantity: { ...DECIMAL_INPUT, description: 'Greater than 0' },
  unitPrice: { ...DECIMAL_INPUT, description: 'Omitted (or null on a new line): the price rules set it (docs/api-conventions.md "Price rules")' },
  discountPercent: { ...DECIMAL_INPUT, description: 'Omitted (or null on a new line): the price rules set it' },
  hasManualPrice: {
    type: ['boolean', 'null'],
    description: 'true keeps unitPrice as sent; false lets the price rules set it (a sent unitPrice is replaced); null/absent: manual when unitPrice is sent',
  },
  hasManualDiscount: { type: ['boolean', 'null'], description: 'The same for discountPercent' },
  description: text(256),
  unitOfMeasure: text(6),
  warehouseId: text(30),
  requestDate: { type: ['string', 'null'], format: 'date-time' },
  note: text(2048),
  taxCategoryId: { ...text(10), description: 'The tax category whose taxes (the order\'s `taxes`) apply to the line' },
  commissionable: { type: ['boolean', 'null'], description: 'Whether the line earns the salesperson\'s commission (default true)' },
  sortOrder: { type: 'integer' },
};

function lineInputWithout(field: keyof typeof LINE_INPUT): Partial<typeof LINE_INPUT> {
  const { [field]: _left, ...rest } = LINE_INPUT;
  return rest;
}

/** The v3 document's line `operation` of the line endpoints: a direction this service does not keep. */
const LINE_DIRECTION: Schema = {
  type: 'null',
  description: 'The line\'s direction (Issue or Receipt) in the v3 document. Not kept by this service: only null (or absent) is accepted.',
};

const NOT_KEPT: Schema = {
  type: 'null',
  description: 'In the published v3 document; not kept by this service: only null (or absent) is accepted, a value is a 400.',
};

/** The published document's properties a DTO accepts only as null (its `declareNotSupported` lists). */
function notKept(dto: abstract new () => object): Record<string, Schema> {
  return Object.fromEntries(notSupportedPropertiesOf(dto).map((name) => [name, NOT_KEPT]));
}

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** `customer.termsId` / `paymentSettings.paymentMethodId`: the document's names for the terms / method id. */
const TERMS_OR_METHOD_ID: Schema = { ...text(30), description: 'The document\'s name for paymentSettings.terms / method with its id only; "" removes it; not with the object form' };

/** New lines: the document's nullable unitPrice and discountPercent read null as not set. */
const NEW_LINE_INPUT = { ...LINE_INPUT, unitPrice: nullable(DECIMAL_INPUT), discountPercent: nullable(DECIMAL_INPUT) };

/** Header fields a client may send (create and PATCH); null is "not set" / "unchanged", never "clear". */
const HEADER_INPUT = {
  date: { type: ['string', 'null'], format: 'date-time' },
  requestOn: { type: ['string', 'null'], format: 'date-time' },
  cancelBy: { type: ['string', 'null'], format: 'date-time' },
  description: text(255),
  note: text(2048),
  currencyId: { type: ['string', 'null'], pattern: '^[A-Z]{3}$' },
  billing: ref('SalesOrderAddressAndContact'),
  shipping: ref('SalesOrderAddressAndContact'),
  paymentSettings: ref('SalesOrderPaymentSettings'),
  freight: ref('SalesOrderFreightInput'),
  salesPersonId: { ...text(15), description: 'The salesperson who earns the commission; "" removes it' },
  commissionPercent: {
    anyOf: [DECIMAL_INPUT, { type: 'null' }],
    description: 'Extension: the salesperson\'s commission, percent (0 to 100) of the commissionable lines; null clears it',
  },
  discounts: { type: 'array', maxItems: 100, items: ref('SalesOrderDiscountInput'), description: 'Extension: the document discounts, replaced whole; [] removes them' },
  taxes: { type: 'array', maxItems: 100, items: ref('SalesOrderTaxInput'), description: 'Extension: the taxes, replaced whole; [] removes them' },
  rotRut: { anyOf: [ref('SalesOrderRotRutInput'), { type: 'null' }], description: 'Extension: the ROT/RUT deduction, replaced whole; null removes it' },
  shipments: { type: 'array', maxItems: 100, items: ref('SalesOrderShipmentInput'), description: 'Extension: the shipments, replaced whole; [] removes them' },
};


/** Shapes as `@erp/sales-orders-queries` builds them in SQL (summary row, full order, line). */
export const SALES_ORDER_SCHEMAS: Schemas = {
  SalesOrderSummary: {
    type: 'object',
    description: 'A list item without `expand`.',
    properties: {
      type: orderType,
      orderId: { type: 'string' },
      status: { type: 'string', enum: [...ORDER_STATUSES] },
      date: dateTime,
      lastModified: dateTime,
      customerId: { type: 'string' },
      customerName: { type: 'string' },
      customerOrder: text(),
      customerRefNo: text(),
      currency: text(),
      orderTotal: decimal(),
      orderQty: decimal(),
      requestOn: nullableDateTime,
      description: text(),
    },
  },
  SalesOrderAddress: {
    type: 'object',
    properties: { line1: text(50), line2: text(50), line3: text(50), postalCode: text(20), city: text(50), countryId: text(2), stateId: text(50) },
  },
  SalesOrderContact: {
    type: 'object',
    properties: { name: text(255), attention: text(255), email: { type: ['string', 'null'], format: 'email' }, phone1: text(50) },
  },
  SalesOrderAddressAndContact: { type: ['object', 'null'], properties: { address: ref('SalesOrderAddress'), contact: ref('SalesOrderContact') } },
  SalesOrderCodeDescription: { type: ['object', 'null'], required: ['id'], properties: { id: { type: 'string', maxLength: 30 }, description: text(100) } },
  SalesOrderPaymentSettings: {
    type: ['object', 'null'],
    properties: { terms: ref('SalesOrderCodeDescription'), method: ref('SalesOrderCodeDescription'), paymentMethodId: TERMS_OR_METHOD_ID, ...notKept(PaymentSettingsDto) },
  },
  SalesOrderIdName: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'null' } } },
  SalesOrderReadAddress: {
    type: 'object',
    description: 'An address as orders show it (the v3 document\'s AddressDto): `countryId` and `stateId` of the request are `country.id` and `county.id`; unset ones are left out.',
    properties: {
      line1: text(50),
      line2: text(50),
      line3: text(50),
      postalCode: text(20),
      city: text(50),
      country: ref('SalesOrderIdName'),
      county: ref('SalesOrderIdName'),
    },
  },
  SalesOrderReadAddressAndContact: {
    type: 'object',
    description: 'Billing or shipping as orders show it; a part never set is left out.',
    properties: { address: ref('SalesOrderReadAddress'), contact: ref('SalesOrderContact') },
  },
  SalesOrderLine: {
    type: 'object',
    properties: {
      lineId: { type: 'integer' },
      sortOrder: { type: 'integer' },
      inventory: { type: 'object', properties: { id: { type: 'string' }, description: text() } },
      description: text(),
      quantity: decimal(),
      unitPrice: decimal(),
      discountPercent: decimal(),
      extendedPrice: decimal('quantity x unitPrice x (1 - discountPercent/100), rounded to cents by the server'),
      unitOfMeasure: text(),
      warehouseId: text(),
      requestDate: nullableDateTime,
      note: text(),
      taxCategoryId: text(),
      commissionable: { type: 'boolean' },
      hasManualPrice: { type: 'boolean', description: 'false: unitPrice comes from the price rules' },
      hasManualDiscount: { type: 'boolean', description: 'false: discountPercent comes from the price rules' },
    },
  },
  SalesOrder: {
    type: 'object',
    description:
      'A full order. The parts `note`, `customer`, `billing`, `shipping`, `paymentSettings`, `financialInformation`, `lines` and `attachments` are present only when expanded (POST and PATCH answer every part).',
    required: ['type', 'orderId', 'status', 'totals', 'lastModified', 'version'],
    properties: {
      type: orderType,
      orderId: { type: 'string', examples: ['000123'] },
      date: dateTime,
      requestOn: nullableDateTime,
      cancelBy: nullableDateTime,
      description: text(),
      note: text(),
      currencyId: text(),
      status: {
        type: 'object',
        properties: { description: { type: 'string', enum: [...ORDER_STATUSES] }, hold: { type: 'boolean' }, cancelled: { type: 'boolean' } },
      },
      customer: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, order: text(), refNo: text() } },
      billing: ref('SalesOrderReadAddressAndContact'),
      shipping: ref('SalesOrderReadAddressAndContact'),
      paymentSettings: {
        type: 'object',
        description: 'The payment method (the request\'s `paymentSettings.method`) as the v3 document names it; left out when not set.',
        properties: { paymentMethod: ref('SalesOrderCodeDescription') },
      },
      financialInformation: {
        type: 'object',
        description: 'The payment terms (the request\'s `paymentSettings.terms`) where the v3 document has them; left out when not set.',
        properties: { terms: ref('SalesOrderCodeDescription') },
      },
      salesPerson: { type: 'object', additionalProperties: false, properties: { id: text(), description: { ...text(), description: 'Not kept: null' } } },
      isRotRutDeductable: { type: 'boolean', description: 'Whether the order has a ROT/RUT deduction (`rotRut`)' },
      totals: ref('SalesOrderTotals'),
      freight: ref('SalesOrderFreight'),
      orderQty: decimal(),
      lines: { type: 'array', items: ref('SalesOrderLine') },
      attachments: { type: 'array', items: ref('AttachmentRef') },
      lastModified: dateTime,
      version: { type: 'string', format: 'byte', description: 'The current ETag value in base64 (the v3 document\'s format: byte). If-Match takes the ETag header.' },
    },
  },
  SalesOrderList: {
    type: 'object',
    description: 'Summary rows without `expand`; full orders with the requested parts with it.',
    required: ['value', 'totalCount', 'nextPage'],
    properties: {
      value: { type: 'array', items: { oneOf: [ref('SalesOrderSummary'), ref('SalesOrder')] } },
      totalCount: { type: 'integer' },
      nextPage: { type: ['string', 'null'], description: 'Path and query of the next page; null on the last' },
    },
  },
  SalesOrderLineList: envelope('SalesOrderLine', 'A page of lines of one order'),
  SalesOrderCreate: {
    type: 'object',
    required: ['type', 'customer'],
    properties: {
      type: orderType,
      customer: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string' }, order: text(40), refNo: text(40), termsId: TERMS_OR_METHOD_ID, ...notKept(CreateCustomerReferenceDto) },
      },
      status: { type: ['string', 'null'], enum: [...CREATE_STATUSES, null] },
      ...HEADER_INPUT,
      date: { type: ['string', 'null'], format: 'date-time', description: 'Today (UTC) when omitted' },
      orderLines: { type: ['array', 'null'], maxItems: 10000, items: ref('SalesOrderLineCreate') },
      ...notKept(CreateSalesOrderDto),
    },
  },
  SalesOrderLineCreate: {
    type: 'object',
    required: ['inventoryId', 'quantity'],
    properties: { ...NEW_LINE_INPUT, ...notKept(NewOrderLineDto), operation: LINE_DIRECTION },
  },
  SalesOrderPatch: {
    type: 'object',
    description: 'Any header fields plus line changes; all or nothing (400 lists every problem, nothing applied).',
    properties: {
      customer: {
        type: ['object', 'null'],
        properties: { id: { type: ['string', 'null'] }, order: text(40), refNo: text(40), termsId: TERMS_OR_METHOD_ID, ...notKept(PatchCustomerReferenceDto) },
      },
      status: { type: ['string', 'null'], enum: [...ORDER_STATUSES, null] },
      ...HEADER_INPUT,
      lines: { type: 'array', maxItems: 10000, items: ref('SalesOrderLineChange') },
      ...notKept(PatchSalesOrderDto),
    },
  },
  SalesOrderLinesAdd: {
    type: 'object',
    description: 'POST .../lines (the v3 document\'s AddSalesOrderLinesCommand): the new lines; all or nothing.',
    required: ['lines'],
    properties: { lines: { type: 'array', minItems: 1, maxItems: 10000, items: ref('SalesOrderLineAdd') } },
  },
  SalesOrderLineAdd: {
    type: 'object',
    required: ['inventoryId', 'quantity'],
    properties: { ...NEW_LINE_INPUT, ...notKept(AddLineDto), operation: LINE_DIRECTION },
  },
  SalesOrderLinesPatch: {
    type: 'object',
    description: 'PATCH .../lines (the v3 document\'s PatchSalesOrderLinesCommand): every entry updates the line its lineId names; all or nothing.',
    required: ['lines'],
    properties: { lines: { type: 'array', minItems: 1, maxItems: 10000, items: ref('SalesOrderLinePatch') } },
  },
  SalesOrderLinePatch: {
    type: 'object',
    description: 'The fields sent change (null clears a text or requestDate; a null quantity, unitPrice, discountPercent or sortOrder is unchanged). No inventoryId, as in the v3 document.',
    required: ['lineId'],
    properties: {
      lineId: { type: 'integer', minimum: 1 },
      ...lineInputWithout('inventoryId'),
      quantity: nullable(LINE_INPUT.quantity),
      unitPrice: nullable(DECIMAL_INPUT),
      discountPercent: nullable(DECIMAL_INPUT),
      sortOrder: { type: ['integer', 'null'] },
      ...notKept(PatchLineEntryDto),
      operation: LINE_DIRECTION,
    },
  },
  ...VIEW_SCHEMAS,
  ...TOTALS_SCHEMAS,
  SalesOrderLineChange: {
    type: 'object',
    description: '`insert`: no lineId, inventoryId/quantity required (unitPrice omitted: the price rules set it); `update`: lineId and the fields to change; `delete`: lineId only.',
    required: ['operation'],
    properties: {
      operation: { type: 'string', enum: ['insert', 'update', 'delete'] },
      lineId: { type: 'integer', minimum: 1 },
      ...LINE_INPUT,
    },
  },
};
