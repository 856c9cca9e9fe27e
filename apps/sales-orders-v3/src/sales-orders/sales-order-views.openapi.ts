import { DECIMAL_INPUT, ref, type Schemas } from '@erp/openapi';
import { ORGANIZATION_NUMBER, PERSONAL_ID } from './dto/order-views.dto';
import { dateTime, decimal, type Schema, text } from './sales-orders.openapi-helpers';

const flag = (description: string): Schema => ({ type: 'boolean', description });
const amount = (description: string): Schema => ({ type: ['number', 'null'], description });

/**
 * The read views exactly as the v3 document declares them (SalesOrderCommissionDto, ...): the same
 * properties, types, nullability and `additionalProperties: false`.
 */
export const VIEW_SCHEMAS: Schemas = {
  SalesOrderCommission: {
    type: 'object',
    additionalProperties: false,
    properties: {
      amount: amount('The commission: commissionableAmount x percent / 100, rounded to cents'),
      commissionableAmount: amount('The extended prices of the commissionable lines'),
      percent: amount('The commission percent'),
      salesPersonId: text(),
    },
  },
  SalesOrderCodeDescriptionPair: { type: 'object', additionalProperties: false, properties: { description: text(), id: text() } },
  SalesOrderDiscount: {
    type: 'object',
    additionalProperties: false,
    properties: {
      discountAmount: amount('discountableAmount x discountPercent / 100 rounded to cents, or the amount set'),
      discountId: text(),
      discountPercent: amount('The percent, for a percent discount'),
      discountSequenceId: text(),
      discountableAmount: amount('The order total after line discounts'),
      discountableQuantity: amount('The order quantity'),
      freeItem: ref('SalesOrderCodeDescriptionPair'),
      freeItemQuantity: amount('Not kept: null'),
      isManual: flag('Always true: discounts are set on the order'),
      manualOrderIndex: { type: 'integer', description: 'The discount\'s place on the order, from 1' },
      skipDiscount: flag('Kept on the order but not applied'),
      type: { ...text(), description: 'Document' },
    },
  },
  SalesOrderRotRutDistribution: {
    type: 'object',
    additionalProperties: false,
    properties: {
      amount: amount('The person\'s deduction on the line (computed when distributedAutomatically)'),
      extra: { type: ['boolean', 'null'] },
      lineId: { type: 'integer' },
      personalId: text(),
    },
  },
  SalesOrderRotRut: {
    type: 'object',
    additionalProperties: false,
    properties: {
      appartment: text(),
      distributedAutomatically: flag('Whether the amounts are computed (ROT 30 %, RUT 50 % of the line including VAT, split equally)'),
      distribution: { type: ['array', 'null'], items: ref('SalesOrderRotRutDistribution') },
      estate: text(),
      organizationNumber: text(),
      type: { ...text(), description: 'ROT or RUT; null when the order has no deduction' },
    },
  },
  SalesOrderShipment: {
    type: 'object',
    additionalProperties: false,
    properties: {
      date: dateTime,
      id: text(),
      inventoryDocumentType: text(),
      inventoryReferenceId: text(),
      invoiceId: text(),
      invoiceType: text(),
      quantity: decimal(),
      type: text(),
      volume: decimal(),
      weight: decimal(),
    },
  },
  SalesOrderTax: {
    type: 'object',
    additionalProperties: false,
    properties: {
      exemptTax: flag('The tax is exempt: its amount is 0'),
      includeInTaxable: flag('The taxable amount counts in the order\'s taxable total'),
      isPendingTax: flag('Pending tax'),
      isReverseTax: flag('Reverse charge'),
      isStatisticalTax: flag('Statistical tax'),
      taxAmount: amount('taxableAmount x taxRate / 100, rounded to cents'),
      taxId: text(),
      taxRate: amount('Percent'),
      taxType: { ...text(), enum: ['Sales', 'Use', 'VAT', 'Withholding', null] },
      taxableAmount: amount('The extended prices of the lines of the tax\'s category less their share of the document discounts'),
    },
  },
  SalesOrderDiscountInput: {
    type: 'object',
    additionalProperties: false,
    description: 'A document discount: discountPercent or discountAmount, exactly one.',
    required: ['discountId'],
    properties: {
      discountId: { type: 'string', maxLength: 10 },
      discountSequenceId: text(10),
      discountPercent: { anyOf: [DECIMAL_INPUT, { type: 'null' }], description: '0 to 100' },
      discountAmount: { anyOf: [DECIMAL_INPUT, { type: 'null' }], description: 'At least 0, at most 2 decimals' },
      skipDiscount: { type: ['boolean', 'null'] },
    },
  },
  SalesOrderTaxInput: {
    type: 'object',
    additionalProperties: false,
    required: ['taxId', 'taxCategoryId', 'taxRate'],
    properties: {
      taxId: { type: 'string', maxLength: 30, description: 'Unique on the order' },
      taxCategoryId: { type: 'string', maxLength: 10, description: 'The lines it applies to' },
      taxRate: { ...DECIMAL_INPUT, description: 'Percent, 0 to 100' },
      taxType: { type: ['string', 'null'], enum: ['Sales', 'Use', 'VAT', 'Withholding', null], description: 'VAT when not set' },
      includeInTaxable: { type: ['boolean', 'null'], description: 'true when not set' },
      exemptTax: { type: ['boolean', 'null'] },
      isPendingTax: { type: ['boolean', 'null'] },
      isReverseTax: { type: ['boolean', 'null'] },
      isStatisticalTax: { type: ['boolean', 'null'] },
    },
  },
  SalesOrderRotRutInput: {
    type: 'object',
    additionalProperties: false,
    required: ['type'],
    properties: {
      type: { type: 'string', enum: ['ROT', 'RUT'] },
      distributedAutomatically: { type: ['boolean', 'null'], description: 'true: the amounts are computed and must not be sent' },
      appartment: text(50),
      estate: text(50),
      organizationNumber: { type: ['string', 'null'], pattern: ORGANIZATION_NUMBER.source },
      distribution: {
        type: ['array', 'null'],
        maxItems: 100,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['lineId', 'personalId'],
          properties: {
            lineId: { type: 'integer', minimum: 1 },
            personalId: { type: 'string', pattern: PERSONAL_ID.source },
            amount: { anyOf: [DECIMAL_INPUT, { type: 'null' }], description: 'Required unless distributedAutomatically' },
            extra: { type: ['boolean', 'null'] },
          },
        },
      },
    },
  },
  SalesOrderShipmentInput: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'date', 'quantity'],
    properties: {
      id: { type: 'string', maxLength: 15, description: 'Unique on the order' },
      date: { type: 'string', format: 'date-time' },
      type: text(10),
      quantity: { ...DECIMAL_INPUT, description: 'Greater than 0' },
      weight: { anyOf: [DECIMAL_INPUT, { type: 'null' }], description: '0 when not set' },
      volume: { anyOf: [DECIMAL_INPUT, { type: 'null' }], description: '0 when not set' },
      inventoryDocumentType: text(10),
      inventoryReferenceId: text(15),
      invoiceType: text(2),
      invoiceId: text(15),
    },
  },
};
