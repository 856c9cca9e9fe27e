import { refuseUnknownParameters, ValidationFailedError } from '@erp/errors';
import { parseV1DateTimeFilter, parseV1Paging, type V1DateTimeFilter, type V1PageRequest } from '@erp/paging';
import { CUSTOMER_STATUSES, type CustomerStatus } from './customer-status';

type Query = Record<string, string | string[] | undefined>;

export interface CustomerListQuery {
  page: V1PageRequest;
  name?: string;
  status?: CustomerStatus;
  corporateId?: string;
  vatRegistrationId?: string;
  lastModified?: V1DateTimeFilter;
  created?: V1DateTimeFilter;
  /** v3 `filter`: case-insensitive substring of the number, the name or the VAT registration id. */
  text?: string;
}

const KNOWN_PARAMETERS = new Set([
  'pageNumber',
  'pageSize',
  'name',
  'status',
  'corporateId',
  'vatRegistrationId',
  'lastModifiedDateTime',
  'lastModifiedDateTimeCondition',
  'createdDateTime',
  'createdDateTimeCondition',
]);

function single(query: Query, name: string, maxLength: number): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw ValidationFailedError.of(name, 'must be given once');
  if (value.length > maxLength) throw ValidationFailedError.of(name, `must be at most ${maxLength} characters`);
  return value;
}

/**
 * Reads the customer list query. Unknown parameters are refused with a 400 naming them
 * (`refuseUnknownParameters`): a misspelt filter must not silently return every customer.
 */
export function parseCustomerListQuery(query: Query, maxPageSize: number): CustomerListQuery {
  refuseUnknownParameters(query, KNOWN_PARAMETERS);
  const status = single(query, 'status', 20);
  if (status !== undefined && !(CUSTOMER_STATUSES as readonly string[]).includes(status)) {
    throw ValidationFailedError.of('status', `must be one of ${CUSTOMER_STATUSES.join(', ')}`);
  }
  return {
    page: parseV1Paging(query, maxPageSize),
    name: single(query, 'name', 255),
    status: status as CustomerStatus | undefined,
    corporateId: single(query, 'corporateId', 50),
    vatRegistrationId: single(query, 'vatRegistrationId', 50),
    lastModified: parseV1DateTimeFilter(query, 'lastModifiedDateTime'),
    created: parseV1DateTimeFilter(query, 'createdDateTime'),
  };
}
