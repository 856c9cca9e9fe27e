import { ref, type Schemas } from '@erp/openapi';
import { CUSTOMER_STATUSES } from './customer.entity';

type Schema = Schemas[string];
const text = (description: string): Schema => ({ type: ['string', 'null'], description });
const always = (value: null | false, description: string): Schema => ({ ...(value === null ? { type: 'null' } : { type: 'boolean', const: false }), description });
const int32 = (description: string): Schema => ({ type: 'integer', format: 'int32', description });
const NOT_KEPT = 'Not kept by this service: always null';

/** What CustomerLocationDto and CustomerLocationItemDto both show of the default location. */
const LOCATION_PROPERTIES: Record<string, Schema> = {
  internalId: int32('The customer internal id'),
  id: { type: 'string', enum: ['MAIN'] },
  name: text("The customer's name"),
  corporateId: text('The corporate id'),
  countryId: text('mainAddress.country.id'),
  gln: always(null, NOT_KEPT),
  taxRegistrationId: text('The VAT registration id'),
  warehouseId: always(null, NOT_KEPT),
};

/**
 * The v3 view of the customers (`/api/v3/Customers`): the schemas as the published v3 document names
 * and shapes them (`additionalProperties: false`), as the SQL of `@erp/customers-queries` builds them.
 */
export const CUSTOMER_V3_SCHEMAS: Schemas = {
  CustomerDtoPagedResult: {
    type: 'object',
    additionalProperties: false,
    required: ['value', 'totalCount', 'nextPage'],
    properties: {
      value: { type: 'array', items: ref('CustomerDto') },
      totalCount: int32('Customers matching the filter'),
      nextPage: { type: ['string', 'null'], description: 'Path and query of the next page; null on the last' },
    },
  },
  CustomerDto: {
    type: 'object',
    additionalProperties: false,
    properties: {
      internalId: int32('Internal id'),
      id: { type: 'string', description: 'The customer number (as `/v1/customer/{number}`)' },
      name: { type: 'string' },
      status: { type: 'string', enum: [...CUSTOMER_STATUSES] },
      addressLine1: text('mainAddress.addressLine1'),
      addressLine2: text('mainAddress.addressLine2'),
      postalCode: text('mainAddress.postalCode'),
      country: text('mainAddress.country.id (ISO 3166-1 alpha-2)'),
      currencyId: text('ISO 4217 code'),
      customerClassId: always(null, NOT_KEPT),
      salutation: always(null, NOT_KEPT),
      defaultLocation: ref('CustomerLocationDto'),
    },
  },
  CustomerLocationDto: {
    type: 'object',
    additionalProperties: false,
    description: 'The default location `MAIN` (the only one a customer has here)',
    properties: {
      ...LOCATION_PROPERTIES,
    },
  },
  CustomerLocationItemDto: {
    type: 'object',
    additionalProperties: false,
    description: 'The default location `MAIN`: the customer main address and main contact',
    properties: {
      ...LOCATION_PROPERTIES,
      preferredWarehouseId: always(null, NOT_KEPT),
      priceClassId: always(null, NOT_KEPT),
      shipViaId: always(null, NOT_KEPT),
      shippingRule: always(null, NOT_KEPT),
      shipTermsId: always(null, NOT_KEPT),
      shipZoneId: always(null, NOT_KEPT),
      fobPointId: always(null, NOT_KEPT),
      taxZoneId: always(null, NOT_KEPT),
      leadTime: always(null, NOT_KEPT),
      priority: always(null, NOT_KEPT),
      insurance: always(false, 'Not kept: always false'),
      residentialDelivery: always(false, 'Not kept: always false'),
      resedentialDelivery: { ...always(false, 'Deprecated spelling of residentialDelivery, kept for clients of the published document'), deprecated: true },
      saturdayDelivery: always(false, 'Not kept: always false'),
      address: ref('CustomerLocationAddressDto'),
      contact: ref('CustomerLocationContactDto'),
    },
  },
  CustomerLocationAddressDto: {
    type: 'object',
    additionalProperties: false,
    description: "The published document's AddressDto: the customer main address",
    properties: {
      id: int32('The customer internal id'),
      line1: text('addressLine1'),
      line2: text('addressLine2'),
      line3: text('addressLine3'),
      postalCode: text('postalCode'),
      city: text('city'),
      country: ref('CdNamePairDto'),
      county: ref('CdNamePairDto'),
      overridesDefault: always(false, 'Always false: this is the default address'),
    },
  },
  CdNamePairDto: {
    type: 'object',
    additionalProperties: false,
    properties: { id: text('The id'), name: text('The name') },
  },
  CustomerLocationContactDto: {
    type: 'object',
    additionalProperties: false,
    description: "The published document's ContactDto: the customer main contact",
    properties: {
      id: int32('The customer internal id'),
      name: text('mainContact.name'),
      attention: always(null, NOT_KEPT),
      email: text('mainContact.email'),
      phone1: text('mainContact.phone1'),
      phone2: always(null, NOT_KEPT),
      fax: always(null, NOT_KEPT),
      overridesDefault: always(false, 'Always false: this is the default contact'),
    },
  },
};
