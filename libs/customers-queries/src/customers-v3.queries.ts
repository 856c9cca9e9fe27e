import { type FieldProblem, unknownParameterProblems, ValidationFailedError } from '@erp/errors';
import { parseV3PagingCollecting } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { customerCountQuery, type SqlQuery } from './customers.queries';
import { readCustomerRows, type RunSql } from './read-customer-page';

/**
 * The v3 view of the customers (`/api/v3/Customers`, the published v3 document's CustomerDto and
 * CustomerLocationItemDto), built by Postgres from the same rows and through the same page queries
 * as the v1 list, so the v1 list's paging and filter work serves both.
 *
 * Locations: a customer here has one address and one contact (`main_address`, `main_contact`), so it
 * has one location, `MAIN` (the default location), made of them; `defaultLocation` is that location.
 * What this service does not keep (GLN, customer class, salutation, price class, shipping and tax
 * zone settings) is null, and the location's flags are false.
 */

/** The id of the one location every customer has. */
export const DEFAULT_LOCATION_ID = 'MAIN';

const COUNTRY = `nullif(c.main_address->'country', 'null'::jsonb)`;

/** The fields CustomerLocationDto and CustomerLocationItemDto share (json_build_object arguments). */
const LOCATION_FIELDS = `
    'internalId', c.internal_id,
    'id', '${DEFAULT_LOCATION_ID}',
    'name', c.name,
    'corporateId', c.corporate_id,
    'countryId', ${COUNTRY}->>'id',
    'gln', NULL,
    'taxRegistrationId', c.vat_registration_id,
    'warehouseId', NULL`;

/** CustomerLocationDto: the default location in short. */
const DEFAULT_LOCATION_JSON = `json_build_object(${LOCATION_FIELDS})`;

/** CustomerDto. */
export const CUSTOMER_V3_JSON = `json_build_object(
    'internalId', c.internal_id,
    'id', c.number,
    'name', c.name,
    'status', c.status,
    'addressLine1', c.main_address->>'addressLine1',
    'addressLine2', c.main_address->>'addressLine2',
    'postalCode', c.main_address->>'postalCode',
    'country', ${COUNTRY}->>'id',
    'currencyId', c.currency_id,
    'customerClassId', NULL,
    'salutation', NULL,
    'defaultLocation', ${DEFAULT_LOCATION_JSON}
  )::text`;

/** CustomerLocationItemDto of the default location: its address and contact are the customer's. */
export const CUSTOMER_LOCATION_JSON = `json_build_object(
    ${LOCATION_FIELDS},
    'preferredWarehouseId', NULL,
    'priceClassId', NULL,
    'shipViaId', NULL,
    'shippingRule', NULL,
    'shipTermsId', NULL,
    'shipZoneId', NULL,
    'fobPointId', NULL,
    'taxZoneId', NULL,
    'leadTime', NULL,
    'priority', NULL,
    'insurance', false,
    'residentialDelivery', false,
    'resedentialDelivery', false,
    'saturdayDelivery', false,
    'address', json_build_object(
      'id', c.internal_id,
      'line1', c.main_address->>'addressLine1',
      'line2', c.main_address->>'addressLine2',
      'line3', c.main_address->>'addressLine3',
      'postalCode', c.main_address->>'postalCode',
      'city', c.main_address->>'city',
      'country', json_build_object('id', ${COUNTRY}->>'id', 'name', ${COUNTRY}->>'name'),
      'county', json_build_object('id', NULL, 'name', NULL),
      'overridesDefault', false
    ),
    'contact', json_build_object(
      'id', c.internal_id,
      'name', c.main_contact->>'name',
      'attention', NULL,
      'email', c.main_contact->>'email',
      'phone1', c.main_contact->>'phone1',
      'phone2', NULL,
      'fax', NULL,
      'overridesDefault', false
    )
  )::text`;

type Query = Record<string, string | string[] | undefined>;

/** The document's default pageSize of `GET /api/v3/Customers`. */
export const CUSTOMER_V3_DEFAULT_PAGE_SIZE = 100;
const V3_PARAMETERS = new Set(['filter', 'pageSize', 'pageIndex']);

/**
 * Reads the query of GET /api/v3/Customers: `filter` (case-insensitive substring of the customer
 * number, name or VAT registration id), `pageSize` (default 100, larger values cut to `maxPageSize`)
 * and 0-based `pageIndex`. Every problem (unknown parameters too) is listed in one 400. It becomes
 * the v1 list's query, so both read through the same page SQL.
 */
export function parseCustomerV3ListQuery(query: Query, maxPageSize: number): CustomerListQuery {
  const problems: FieldProblem[] = unknownParameterProblems(query, V3_PARAMETERS);
  const page = parseV3PagingCollecting(query, { defaultPageSize: Math.min(CUSTOMER_V3_DEFAULT_PAGE_SIZE, maxPageSize), maxPageSize }, problems);
  const filter = query.filter;
  if (Array.isArray(filter)) problems.push({ field: 'filter', message: 'must be given once', code: '0002-InvalidValue' });
  else if (filter !== undefined && filter.length > 255) problems.push({ field: 'filter', message: 'must be at most 255 characters', code: '0004-TooLong' });
  // eslint-disable-next-line no-control-regex -- never in a customer's fields, and PostgreSQL refuses U+0000 in a parameter
  else if (filter !== undefined && /[\u0000-\u001f\u007f]/.test(filter)) problems.push({ field: 'filter', message: 'must not contain control characters', code: '0002-InvalidValue' });
  if (problems.length > 0 || !page) throw new ValidationFailedError(problems);
  const text = typeof filter === 'string' && filter.trim() !== '' ? filter.trim() : undefined;
  return { page: { pageNumber: page.pageIndex + 1, pageSize: page.pageSize, offset: page.offset, maxPageSize: page.maxPageSize }, text };
}

/** One page of the v3 view (items as JSON text) and the exact total, through the v1 list's page queries. */
export async function readCustomerV3Page(run: RunSql, companyId: string, query: CustomerListQuery): Promise<{ items: string[]; totalCount: number }> {
  const { items, totalCount } = await readCustomerRows(run, companyId, query, CUSTOMER_V3_JSON);
  if (totalCount !== undefined) return { items, totalCount };
  // A page past the end has no rows to carry the total: v3 still reports it.
  const count = customerCountQuery(companyId, query);
  return { items, totalCount: (await run<{ total: number }>(count.text, count.values))[0].total };
}

/** The default location of one customer (the only one it has), as CustomerLocationItemDto JSON text. */
export function customerLocationsQuery(companyId: string, number: string): SqlQuery {
  return {
    text: `SELECT ${CUSTOMER_LOCATION_JSON} AS json FROM customers c WHERE c.company_id = $1 AND c.number = $2`,
    values: [companyId, number],
  };
}
