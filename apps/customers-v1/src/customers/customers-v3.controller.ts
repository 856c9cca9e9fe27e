import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApplicationTypeNotRequired, CompanyId } from '@erp/auth';
import { NotFoundError, refuseUnknownParameters } from '@erp/errors';
import { ApiAuthenticated, ApiErrors, ApiJsonResponse, ApiV3Paging, JSON_TYPE, ref } from '@erp/openapi';
import { CUSTOMER_V3_DEFAULT_PAGE_SIZE } from '@erp/customers-queries';
import { ListCustomerLocations } from './use-cases/list-customer-locations.use-case';
import { ListCustomersV3 } from './use-cases/list-customers-v3.use-case';

const NUMBER_IN_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$/;

/**
 * `/api/v3/Customers`: the published v3 document's view of the customers this service owns
 * (problem+json errors, no `ipp-application-type`). Read-only: customers are written through `/v1/customer`.
 */
@Controller('api/v3/Customers')
@ApiTags('Customers (v3)')
@ApiAuthenticated('problem')
@ApplicationTypeNotRequired()
export class CustomersV3Controller {
  constructor(
    private readonly listCustomers: ListCustomersV3,
    private readonly listLocations: ListCustomerLocations,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'Customers_GetList_',
    summary: 'Gets a list of customers',
    description: 'In creation order (as `/v1/customer`). Unknown query parameters are 400.',
  })
  @ApiQuery({ name: 'filter', required: false, description: 'Case-insensitive text matched against the customer number (id), name and VAT registration id', schema: { type: 'string' } })
  @ApiV3Paging(CUSTOMER_V3_DEFAULT_PAGE_SIZE, 1000, ' (`CUSTOMER_MAX_PAGE_SIZE`)')
  @ApiJsonResponse(200, 'A page of customers', 'CustomerDtoPagedResult')
  @Header('content-type', JSON_TYPE)
  async GetList_(@CompanyId() companyId: string, @Query() query: Record<string, string | string[] | undefined>, @Req() request: FastifyRequest): Promise<string> {
    const url = request.url;
    const q = url.indexOf('?');
    return this.listCustomers.execute(companyId, query, { path: q < 0 ? url : url.slice(0, q), rawQuery: q < 0 ? '' : url.slice(q + 1) });
  }

  @Get(':customerId/locations')
  @ApiOperation({
    operationId: 'Customers_GetCustomerLocationList_customerIdlocations',
    summary: 'Gets a list of locations for the specified customer',
    description: 'One location, `MAIN`: the customer main address and main contact.',
  })
  @ApiParam({ name: 'customerId', description: 'The customer number', schema: { type: 'string' } })
  @ApiJsonResponse(200, 'The locations of the customer', { type: 'array', items: ref('CustomerLocationItemDto') })
  @ApiErrors('problem', 404)
  @Header('content-type', JSON_TYPE)
  async GetCustomerLocationList_customerIdlocations(
    @CompanyId() companyId: string,
    @Param('customerId') customerId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    refuseUnknownParameters(query, []);
    if (!NUMBER_IN_PATH.test(customerId)) throw new NotFoundError(`Customer ${customerId.slice(0, 40)}`);
    return this.listLocations.execute(companyId, customerId);
  }
}
