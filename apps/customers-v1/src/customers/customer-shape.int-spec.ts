import { recordFields, schemaFields, shapeDisagreements, type ShapeSide, validatedFields } from '@erp/testing';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';
import { AddressDto, ContactDto, CountryDto, CreateCustomerDto, CreditTermsDto } from './dto/customer-write.dto';
import { CUSTOMER_SCHEMAS } from './customers.openapi';

/**
 * The mirrors of the v1 customer's shape, held to each other (docs/adding-a-field.md): the record
 * `CUSTOMER_JSON` builds, the schemas of `customers.openapi.ts`, the fields the write DTOs validate.
 * The PUT's column map is held to the DTO by its type (`WRITABLE_COLUMNS` is keyed by every
 * field a PUT sends). A field added to one and not the other fails here, naming both.
 */
const JSON_FILE = 'CUSTOMER_JSON (libs/customers-queries/src/customers.queries.ts)';
const DTO_FILE = 'dto/customer-write.dto.ts';
const schema = (name: string): ShapeSide => ({ name: `${name} of CUSTOMER_SCHEMAS (customers.openapi.ts)`, fields: schemaFields(CUSTOMER_SCHEMAS, name) });
const dto = (cls: new () => object): ShapeSide => ({ name: `${cls.name} (${DTO_FILE})`, fields: validatedFields(cls) });

describe('customer shape: the SQL record, the OpenAPI schemas and the write DTOs agree', () => {
  let t: CustomersTestApp;

  beforeAll(async () => {
    t = await startCustomersTestApp();
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('the record the database builds, in the list too, has exactly the properties of the Customer schema, and its parts those of theirs', async () => {
    const headers = { ...(await t.auth.headers({ company: '1000001' })), 'content-type': 'application/json' };
    const created = await t.http.request('/v1/customer', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Shape AS',
        mainAddress: { addressLine1: 'Gate 1', addressLine2: 'b', addressLine3: 'c', postalCode: '0150', city: 'Oslo', country: { id: 'NO', name: 'Norway' } },
        mainContact: { name: 'Kari', email: 'kari@example.com', phone1: '+47 1' },
        creditTerms: { id: '30D', description: '30 days' },
      }),
    });
    expect(created.status).toBe(201);
    type Part = Record<string, unknown>;
    const record = (await created.json()) as Part & { mainAddress: Part & { country: Part }; mainContact: Part; creditTerms: Part };
    const [item] = (await (await t.http.request('/v1/customer', { headers })).json()) as object[];
    expect([
      ...shapeDisagreements({ name: JSON_FILE, fields: recordFields(record) }, schema('Customer')),
      ...shapeDisagreements({ name: `${JSON_FILE} in the list`, fields: recordFields(item) }, schema('Customer')),
      ...shapeDisagreements({ name: `${JSON_FILE} mainAddress`, fields: recordFields(record.mainAddress) }, schema('CustomerAddress')),
      ...shapeDisagreements({ name: `${JSON_FILE} mainAddress.country`, fields: recordFields(record.mainAddress.country) }, schema('CustomerCountry')),
      ...shapeDisagreements({ name: `${JSON_FILE} mainContact`, fields: recordFields(record.mainContact) }, schema('CustomerContact')),
      ...shapeDisagreements({ name: `${JSON_FILE} creditTerms`, fields: recordFields(record.creditTerms) }, schema('CustomerCreditTerms')),
    ]).toEqual([]);
  });

  it('the write schemas document exactly the fields the DTOs validate', () => {
    expect([
      ...shapeDisagreements(dto(CreateCustomerDto), schema('CustomerCreate')),
      ...shapeDisagreements(schema('CustomerCreate'), schema('CustomerUpdate')),
      ...shapeDisagreements(dto(AddressDto), schema('CustomerAddress')),
      ...shapeDisagreements(dto(CountryDto), schema('CustomerCountry')),
      ...shapeDisagreements(dto(ContactDto), schema('CustomerContact')),
      ...shapeDisagreements(dto(CreditTermsDto), schema('CustomerCreditTerms')),
    ]).toEqual([]);
  });
});
