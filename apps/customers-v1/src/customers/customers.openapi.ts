import { nullableRef, type Schemas, v1Field } from '@erp/openapi';
import { CUSTOMER_STATUSES } from './customer.entity';

const str = (description?: string, extra: object = {}) => ({ type: 'string', ...(description ? { description } : {}), ...extra });
const nullableStr = (description?: string) => ({ type: ['string', 'null'], ...(description ? { description } : {}) });
const ts = (description: string) => str(description, { examples: ['2026-01-31T12:00:00.000'] });
const obj = nullableRef;

/** The record as the SQL of `@erp/customers-queries` builds it (CUSTOMER_JSON). */
const CUSTOMER_PROPERTIES = {
  internalId: { type: 'integer', description: 'Internal id' },
  number: str('Customer number (assigned from the company sequence when POST omits it)', { examples: ['10001'] }),
  name: str(),
  status: str(undefined, { enum: [...CUSTOMER_STATUSES] }),
  mainAddress: obj('CustomerAddress'),
  mainContact: obj('CustomerContact'),
  corporateId: nullableStr(),
  vatRegistrationId: nullableStr(),
  currencyId: nullableStr('ISO 4217 code'),
  creditTerms: obj('CustomerCreditTerms'),
  createdDateTime: ts('UTC, ISO 8601 without zone'),
  lastModifiedDateTime: ts('UTC, ISO 8601 without zone'),
  timeStamp: str('The version (ETag value)'),
};

/** Write body fields: each may be plain or wrapped as `{ "value": ... }`, as v1 clients send them. */
const wrapped = v1Field;
const WRITE_PROPERTIES = {
  number: wrapped(str('1 to 30 letters, digits, ".", "_" or "-"', { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$' })),
  name: wrapped(str(undefined, { minLength: 1, maxLength: 255 })),
  status: wrapped(str(undefined, { enum: [...CUSTOMER_STATUSES] })),
  mainAddress: wrapped(obj('CustomerAddress')),
  mainContact: wrapped(obj('CustomerContact')),
  corporateId: wrapped({ type: ['string', 'null'], maxLength: 50 }),
  vatRegistrationId: wrapped({ type: ['string', 'null'], maxLength: 50 }),
  currencyId: wrapped({ type: ['string', 'null'], pattern: '^[A-Z]{3}$' }),
  creditTerms: wrapped(obj('CustomerCreditTerms')),
};

export const CUSTOMER_SCHEMAS: Schemas = {
  CustomerCountry: {
    type: 'object',
    required: ['id'],
    properties: { id: str('ISO 3166-1 alpha-2', { pattern: '^[A-Z]{2}$' }), name: nullableStr() },
  },
  CustomerAddress: {
    type: 'object',
    properties: {
      addressLine1: nullableStr(),
      addressLine2: nullableStr(),
      addressLine3: nullableStr(),
      postalCode: nullableStr(),
      city: nullableStr(),
      country: obj('CustomerCountry'),
    },
  },
  CustomerContact: { type: 'object', properties: { name: nullableStr(), email: nullableStr(), phone1: nullableStr() } },
  CustomerCreditTerms: { type: 'object', required: ['id'], properties: { id: str(), description: nullableStr() } },
  Customer: { type: 'object', required: ['internalId', 'number', 'name', 'status', 'timeStamp'], properties: CUSTOMER_PROPERTIES },
  CustomerListItem: {
    allOf: [
      { $ref: '#/components/schemas/Customer' },
      { type: 'object', required: ['metadata'], properties: { metadata: { $ref: '#/components/schemas/V1ListMetadata' } } },
    ],
  },
  CustomerCreate: { type: 'object', required: ['name'], properties: WRITE_PROPERTIES },
  CustomerUpdate: { type: 'object', description: 'Only the fields sent change; nested objects merge, `null` clears.', properties: WRITE_PROPERTIES },
};
